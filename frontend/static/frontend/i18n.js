// Every string the table and replay scripts show, in English and Czech. The page's language is
// <html lang> (set by Django from the browser's preference or the language switch).

export const LANG = (document.documentElement.lang || "en").toLowerCase().startsWith("cs")
  ? "cs" : "en";

const EN = {
  // connection and status
  connecting: "Connecting…", live: "Live", reconnecting: "Reconnecting…",
  status_lobby: "Waiting for players: {taken} of {seats} seats taken",
  status_active: "Turn {turn} · {variant}", status_ended: "Game over · {variant}",
  variant_standard: "standard game", variant_pairs: "Pairs", variant_pairs_extreme: "Pairs extreme",
  waiting_for: "Waiting for {names}", your_decision: "Your decision",
  rigged: "rigged game",
  delayed_one: "Delayed by 1 event", delayed_many: "Delayed by {n} events",
  // seats
  seat_name: "seat {seat}", free_seat: "free seat", you: "you", kostic: "Kostič", bot: "bot",
  pair: "pair {team}", out: "out", winner: "winner",
  lives_one: "1 life", lives_many: "{n} lives", cards_one: "1 card", cards_many: "{n} cards",
  await_play: "to play", await_block: "may block", await_choose_neighbor: "picks a neighbour",
  await_bet: "bets", await_handoff: "may hand on a card",
  // piles
  draw_pile: "Draw pile", discard_pile: "Discard pile", empty: "empty",
  top_card: "top: {card}", countdown: "Countdown",
  countdown_left_many: "Countdown: {n} turns left", countdown_last: "Countdown: last turn",
  turns_left_many: "{n} turns left", last_turn: "last turn", no_cards: "no cards",
  deadline: "Time left: {time}", overdue: "Time is up; the service acts now",
  blocked: "blocked",
  // the pending play
  pending_one: "{who} plays {card}: {effect} on {target}",
  pending_all: "{who} plays {card}: {effect} on everyone",
  block_open: "Block window: anyone asked may block with a card of the same colour.",
  resolving: "Resolving for {who}", duel_state: "Duel: {a} against {b}",
  duel_bettor: "{who} bets", duel_bet: "{who} bet on {value}",
  handoff_state: "{who} may hand on a card",
  // acting
  pick_card: "Your turn: pick a card from your hand.",
  pick_effect: "{card}: which effect?", pick_scope: "On whom?",
  scope_one: "One player", scope_all: "Everyone",
  pick_target: "Pick a target: press the button at a player's seat.",
  target: "Target {who}", play_summary_one: "Play {card}: {effect} on {target}?",
  play_summary_all: "Play {card}: {effect} on everyone?",
  play: "Play", back: "Back", not_playable: "cannot be played now",
  block_ask: "{who} plays {card}: {effect}. Block it?",
  block_with: "Block with {card}", pass: "Pass",
  no_block: "None of your cards can block this (same colour needed; never your last card).",
  passed: "You let it pass; waiting for the others.",
  pick_neighbor: "Pick the neighbour for {effect}:", neighbor: "{who}",
  bet_ask: "Duel against {who}: place your bet. The die decides; a miss costs 2 lives.",
  bet_ask_coin: "Duel against {who}: call the coin. A miss costs 2 lives.",
  bet_parity_even: "Even", bet_parity_odd: "Odd", bet_size_small: "Small (1–3)",
  bet_size_big: "Big (4–6)", bet_coin_heads: "Heads", bet_coin_tails: "Tails",
  handoff_ask: "You are out. Hand one card to a player still in the game, or decline.",
  handoff_card: "Give {card}", handoff_to: "To {who}", handoff_confirm: "Hand {card} to {who}",
  handoff: "Hand on", decline: "Decline",
  error: "{message}", error_stale_seq: "The game moved on before your command arrived; the table is up to date now — try again.",
  error_network: "The server could not be reached. Check the connection and try again.",
  error_not_your_turn: "It is not your decision any more (the time may have run out).",
  error_game_over: "The game is over.", error_illegal_move: "That move is not allowed now.",
  error_not_authenticated: "Log in to play.",
  // the end
  winners_one: "Winner: {names}", winners_many: "Winners: {names}", you_win: "You win!",
  place: "{n}{th}", places: "Places", your_place: "You came {place} of {of}, with {lives}.",
  end_replay: "Watch the replay", end_new_game: "Start a new game",
  no_block_auto: "You can't block this (no card of yours has its colour, or it would be your last): passing.",
  invite_wait: "Waiting for players: {n} seat(s) free.", invite_copy: "Copy invite link",
  invite_copied: "Copied: send it to the players you want.",
  invite_how: "The game starts when every seat is taken. Whoever opens the invite link (logged in) takes a free seat.",
  neighbor_at: "{who} — {where}, {lives}", neighbor_left: "on the left", neighbor_right: "on the right",
  neighbor_self: "you",
  since_move: "Since your move:", skip_hint: "click to skip",
  b_play: "{who}: {card} → {target}", b_play_all: "{who}: {card} → everyone", b_blocked: "{who} blocks with {card}",
  b_unblocked: "Nobody blocked", b_roll: "{who} rolls {value}", b_toss: "{who}: {side}", b_out: "{who} is out",
  b_lives: "{who} {from} → {to}", b_neighbor: "{who} picks {other}", b_bet: "{who} bets on {value}",
  b_turn: "Turn {turn}: {who}", b_end: "Game over",
  hands_title: "Every hand, now that the game is over",
  // the log
  log_since: "Since your last visit", log_nothing_new: "Nothing new since your last visit.",
  log_summary: "Since your last visit: {events} over {turns}.",
  events_one: "1 event", events_many: "{n} events", turns_one: "1 turn", turns_many: "{n} turns",
  log_summary_lives: "Lives: {changes}.", log_summary_out: "Out: {names}.",
  log_summary_end: "The game has ended.",
  created: "Game created: {variant}, {players}, duels with a {duel}{rigged}",
  players_one: "1 player", players_many: "{n} players",
  duel_die: "die", duel_coin: "coin", rigged_suffix: " (rigged)",
  seat_taken: "{who} takes seat {seat}", seat_taken_bot: "A bot takes seat {seat}",
  started: "Cards dealt; {count} cards in the draw pile", holds: "{who} holds {cards}",
  first_roll: "{who} rolls {value} for first Kostič",
  turn: "Turn {turn} — Kostič: {who}",
  skip_empty_hand: "{who} has no card and only draws",
  skip_no_legal_play: "{who} has no legal play and only draws",
  play_one: "{who} plays {card} ({effect}) on {target}",
  play_all: "{who} plays {card} ({effect}) on everyone",
  passes: "{who} lets it pass", passes_hidden: "Someone lets it pass",
  blocks: "{who} blocks with {card}; the effect is cancelled",
  passes_standing: "{who} lets it pass (standing order)",
  blocks_standing: "{who} blocks with {card} (standing order); the effect is cancelled",
  unblocked: "Nobody blocked",
  neighbor_asked: "{who} picks a neighbour", neighbor_chosen: "{who} picks neighbour {other}",
  duel: "Duel: {who} against {other}; {who} bets first",
  bet: "{who} bets on {value}",
  bet_even: "even", bet_odd: "odd", bet_small: "small", bet_big: "big",
  bet_heads: "heads", bet_tails: "tails",
  roll: "{who} rolls {value}: {result}", toss: "{who} tosses {side}: {result}",
  hit: "hit", miss: "miss",
  lives_changed: "Lives: {changes}", no_change: "Lives: no change",
  eliminated: "{who} is out", eliminated_by: "{who} is out, eliminated by {by}",
  bonus: "Eliminator bonus: {changes}", countdown_started: "Countdown starts at {value}",
  handed: "{who} hands {card} to {to}", handed_hidden: "{who} hands a card to {to}",
  handoff_declined: "{who} hands on no card", discards: "{who} discards {cards}",
  reshuffled: "Discard pile reshuffled into a new draw pile of {count}",
  draws: "{who} draws {card}", draws_hidden: "{who} draws a card",
  countdown_step: "Countdown: {value}", turn_ended: "End of turn {turn}",
  effect_done: "The effect is over",
  timed_out: "Time ran out ({phase}) for {who}; the service acts",
  phase_play: "the play", phase_block: "the block window", phase_choose_neighbor: "the neighbour choice",
  phase_bet: "the bet", phase_handoff: "the handoff",
  ended_countdown: "Game over: the countdown ran out",
  ended_last_standing: "Game over: fewer than two players remain",
  // the replay viewer
  r_back: "Back", r_forward: "Forward", r_play: "Play", r_pause: "Pause", r_speed: "Speed",
  r_scrubber: "Position in the game",
  r_turn_back_name: "Previous turn", r_turn_forward_name: "Next turn",
  r_position: "Event {at} of {last}", r_markers: "Moments",
  m_block: "block", m_duel: "duel", m_elimination: "elimination", m_countdown: "countdown",
  m_end: "end", m_turn: "Turn {turn}", r_keys: "Arrow keys step through the game.",
};

const CS = {
  connecting: "Připojuji…", live: "Živě", reconnecting: "Znovu se připojuji…",
  status_lobby: "Čeká se na hráče: obsazeno {taken} z {seats} míst",
  status_active: "Tah {turn} · {variant}", status_ended: "Konec hry · {variant}",
  variant_standard: "běžná hra", variant_pairs: "Dvojičky", variant_pairs_extreme: "Dvojičky Extrém",
  waiting_for: "Čeká se na: {names}", your_decision: "Rozhoduješ ty",
  rigged: "nastavená hra",
  delayed_one: "Zpožděno o 1 událost", delayed_few: "Zpožděno o {n} události",
  delayed_many: "Zpožděno o {n} událostí",
  seat_name: "místo {seat}", free_seat: "volné místo", you: "ty", kostic: "Kostič", bot: "bot",
  pair: "dvojice {team}", out: "mimo hru", winner: "vyhrává",
  lives_one: "1 život", lives_few: "{n} životy", lives_many: "{n} životů",
  cards_one: "1 karta", cards_few: "{n} karty", cards_many: "{n} karet",
  await_play: "hraje", await_block: "může blokovat", await_choose_neighbor: "vybírá souseda",
  await_bet: "sází", await_handoff: "může předat kartu",
  draw_pile: "Dobírací balíček", discard_pile: "Odhazovací balíček", empty: "prázdný",
  top_card: "navrchu: {card}", countdown: "Odpočet",
  countdown_left_few: "Odpočet: zbývají {n} tahy", countdown_left_many: "Odpočet: zbývá {n} tahů",
  countdown_last: "Odpočet: poslední tah",
  turns_left_few: "zbývají {n} tahy", turns_left_many: "zbývá {n} tahů", last_turn: "poslední tah",
  no_cards: "žádné karty",
  deadline: "Zbývá: {time}", overdue: "Čas vypršel; za hráče jedná služba",
  blocked: "zablokováno",
  pending_one: "{who} hraje {card}: {effect} na hráče {target}",
  pending_all: "{who} hraje {card}: {effect} na všechny",
  block_open: "Blokování: kdo je dotázán, může blokovat kartou stejné barvy.",
  resolving: "Vyhodnocuje se pro hráče {who}", duel_state: "Souboj: {a} proti {b}",
  duel_bettor: "Sází {who}", duel_bet: "{who}: sázka na {value}",
  handoff_state: "{who} může předat kartu",
  pick_card: "Jsi na tahu: vyber kartu z ruky.",
  pick_effect: "{card}: který efekt?", pick_scope: "Na koho?",
  scope_one: "Jeden hráč", scope_all: "Všichni",
  pick_target: "Vyber cíl: stiskni tlačítko u místa hráče.",
  target: "Cíl: {who}", play_summary_one: "Zahrát {card}: {effect} na hráče {target}?",
  play_summary_all: "Zahrát {card}: {effect} na všechny?",
  play: "Zahrát", back: "Zpět", not_playable: "teď nejde zahrát",
  block_ask: "{who} hraje {card}: {effect}. Zablokovat?",
  block_with: "Blokovat kartou {card}", pass: "Nechat projít",
  no_block: "Žádnou ze svých karet to zablokovat nemůžeš (musí mít stejnou barvu a nesmí být poslední).",
  passed: "Necháváš projít; čeká se na ostatní.",
  pick_neighbor: "Vyber souseda pro {effect}:", neighbor: "{who}",
  bet_ask: "Souboj s hráčem {who}: vsaď si. Rozhodne kostka; kdo se netrefí, ztratí 2 životy.",
  bet_ask_coin: "Souboj s hráčem {who}: tipni si minci. Kdo se netrefí, ztratí 2 životy.",
  bet_parity_even: "Sudé", bet_parity_odd: "Liché", bet_size_small: "Malé (1–3)",
  bet_size_big: "Velké (4–6)", bet_coin_heads: "Panna", bet_coin_tails: "Orel",
  handoff_ask: "Vypadl jsi. Předej jednu kartu hráči, který je ještě ve hře, nebo nepředávej nic.",
  handoff_card: "Dát {card}", handoff_to: "Hráči {who}", handoff_confirm: "Předat {card} hráči {who}",
  handoff: "Předat", decline: "Nepředávat",
  error: "{message}", error_stale_seq: "Hra mezitím pokročila; stůl je teď aktuální — zkus to znovu.",
  error_network: "Server není dostupný. Zkontroluj připojení a zkus to znovu.",
  error_not_your_turn: "Teď už nerozhoduješ ty (možná vypršel čas).",
  error_game_over: "Hra skončila.", error_illegal_move: "Tento tah teď není povolený.",
  error_not_authenticated: "Pro hraní se přihlas.",
  winners_one: "Vyhrává: {names}", winners_many: "Vyhrávají: {names}", you_win: "Vyhráváš!",
  place: "{n}.", places: "Pořadí", your_place: "Tvoje místo: {place} z {of}, {lives}.",
  end_replay: "Přehrát záznam hry", end_new_game: "Založit novou hru",
  no_block_auto: "Tohle zablokovat nemůžeš (žádná tvoje karta nemá stejnou barvu, nebo by to byla poslední): necháváš projít.",
  invite_wait: "Čeká se na hráče, volných míst: {n}.", invite_copy: "Zkopírovat pozvánku",
  invite_copied: "Zkopírováno: pošli odkaz, komu chceš.",
  invite_how: "Hra začne, až budou obsazená všechna místa. Kdo otevře odkaz pozvánky (přihlášený), sedne si na volné místo.",
  neighbor_at: "{who} — {where}, {lives}", neighbor_left: "po levici", neighbor_right: "po pravici",
  neighbor_self: "ty",
  since_move: "Od tvého tahu:", skip_hint: "klepnutím přeskočíš",
  b_play: "{who}: {card} → {target}", b_play_all: "{who}: {card} → všichni", b_blocked: "{who} blokuje kartou {card}",
  b_unblocked: "Bez bloku", b_roll: "{who} hází {value}", b_toss: "{who}: {side}", b_out: "{who} vypadává ze hry",
  b_lives: "{who} {from} → {to}", b_neighbor: "{who} vybírá: {other}", b_bet: "{who} sází na {value}",
  b_turn: "Tah {turn}: {who}", b_end: "Konec hry",
  hands_title: "Všechny karty v rukou (hra skončila)",
  log_since: "Od tvé poslední návštěvy", log_nothing_new: "Od tvé poslední návštěvy se nic nestalo.",
  log_summary: "Od tvé poslední návštěvy: {events}, {turns}.",
  events_one: "1 událost", events_few: "{n} události", events_many: "{n} událostí",
  turns_one: "1 tah", turns_few: "{n} tahy", turns_many: "{n} tahů",
  log_summary_lives: "Životy: {changes}.", log_summary_out: "Mimo hru: {names}.",
  log_summary_end: "Hra skončila.",
  created: "Hra založena: {variant}, {players}, souboj {duel}{rigged}",
  players_one: "1 hráč", players_few: "{n} hráči", players_many: "{n} hráčů",
  duel_die: "kostkou", duel_coin: "mincí", rigged_suffix: " (nastavená hra)",
  seat_taken: "{who} si sedá na místo {seat}", seat_taken_bot: "Na místo {seat} si sedá bot",
  started: "Karty rozdány; v dobíracím balíčku je karet: {count}", holds: "{who} má v ruce {cards}",
  first_roll: "{who} hází o prvního Kostiče: {value}",
  turn: "Tah {turn} — Kostič: {who}",
  skip_empty_hand: "{who} nemá kartu, jen si lízne",
  skip_no_legal_play: "{who} nemůže nic zahrát, jen si lízne",
  play_one: "{who} hraje {card} ({effect}) na hráče {target}",
  play_all: "{who} hraje {card} ({effect}) na všechny",
  passes: "{who} nechává projít", passes_hidden: "Někdo nechává projít",
  blocks: "{who} blokuje kartou {card}; efekt se ruší",
  passes_standing: "{who} nechává projít (trvalý pokyn)",
  blocks_standing: "{who} blokuje kartou {card} (trvalý pokyn); efekt se ruší",
  unblocked: "Nikdo nezablokoval: efekt platí",
  neighbor_asked: "{who} vybírá souseda", neighbor_chosen: "{who} vybírá souseda: {other}",
  duel: "Souboj: {who} proti hráči {other}; první sází {who}",
  bet: "{who} sází na {value}",
  bet_even: "sudou", bet_odd: "lichou", bet_small: "malou", bet_big: "velkou",
  bet_heads: "pannu", bet_tails: "orla",
  roll: "{who} hází kostkou: {value} — {result}", toss: "{who} hází mincí: {side} — {result}",
  hit: "trefa", miss: "vedle",
  lives_changed: "Životy: {changes}", no_change: "Životy se nemění",
  eliminated: "{who} vypadává ze hry", eliminated_by: "{who} vypadává ze hry (vyřazení: {by})",
  bonus: "Život za vyřazení: {changes}", countdown_started: "Začíná závěrečný odpočet: {value}",
  handed: "{who} předává {card} hráči {to}", handed_hidden: "{who} předává kartu hráči {to}",
  handoff_declined: "{who} žádnou kartu nepředává", discards: "{who} odhazuje {cards}",
  reshuffled: "Odhozené karty zamíchány do nového dobíracího balíčku ({count})",
  draws: "{who} si lízne {card}", draws_hidden: "{who} si lízne kartu",
  countdown_step: "Odpočet: {value}", turn_ended: "Konec tahu {turn}",
  effect_done: "Efekt doběhl",
  timed_out: "Vypršel čas ({phase}): {who}; za hráče jedná služba",
  phase_play: "tah", phase_block: "blokování", phase_choose_neighbor: "volba souseda",
  phase_bet: "sázka", phase_handoff: "předání karty",
  ended_countdown: "Konec hry: odpočet doběhl",
  ended_last_standing: "Konec hry: ve hře zbývá méně než dva hráči",
  r_back: "Zpět", r_forward: "Vpřed", r_play: "Přehrát", r_pause: "Pozastavit", r_speed: "Rychlost",
  r_scrubber: "Pozice ve hře",
  r_turn_back_name: "Předchozí tah", r_turn_forward_name: "Další tah",
  r_position: "Událost {at} z {last}", r_markers: "Okamžiky",
  m_block: "blok", m_duel: "souboj", m_elimination: "vyřazení", m_countdown: "odpočet",
  m_end: "konec", m_turn: "Tah {turn}", r_keys: "Šipkami se posouváš hrou.",
};

const WORDS = { en: EN, cs: CS };

/** A feature module's own words (e.g. away.js), added to both languages when it loads. */
export function addWords(en, cs) {
  Object.assign(EN, en);
  Object.assign(CS, cs);
}

/** The string `key` in the page language with `{field}`s filled in (text only). */
export function t(key, fields = {}) {
  const template = WORDS[LANG][key] ?? EN[key] ?? key;
  return template.replace(/\{(\w+)\}/g, (_, name) => String(fields[name] ?? ""));
}

/** Like t(), but fields may be DOM nodes (card references): returns a DocumentFragment. */
export function tNodes(key, fields = {}) {
  const template = WORDS[LANG][key] ?? EN[key] ?? key;
  const out = document.createDocumentFragment();
  template.split(/(\{\w+\})/).forEach((part) => {
    const name = part.match(/^\{(\w+)\}$/)?.[1];
    const value = name ? fields[name] : part;
    if (value instanceof Node) out.append(value);
    else out.append(String(value ?? ""));
  });
  return out;
}

/** Whether `key` has words (to prefer our own over a server's English message). */
export function has(key) {
  return key in EN;
}

const PLURAL = new Intl.PluralRules(LANG);

/** "1 life" / "3 lives", Czech "1 karta" / "3 karty" / "5 karet": the words `${key}_one`,
 * `${key}_few` (Czech 2–4) or `${key}_many` (any other count: Intl's "other", and Czech
 * "many", which only fractions get) for n, chosen by Intl.PluralRules of the page language. */
export function count(key, n, fields = {}) {
  const rule = PLURAL.select(n);
  const form = rule === "one" || rule === "few" ? rule : "many";
  const found = WORDS[LANG][`${key}_${form}`] !== undefined ? form : "many";
  return t(`${key}_${found}`, { n, ...fields });
}
