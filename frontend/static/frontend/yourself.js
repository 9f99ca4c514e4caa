// The table speaks to the player about himself (issue 18): "you", never his own name, in the
// pending play and the prompts, and a confirmation before an effect he aims at himself would
// cost him lives ("Lose 1 life yourself?"; at 1 life it says that this knocks him out).

import { addWords, count, t } from "./i18n.js";

addWords({
  pending_mine_one: "You play {card}: {effect} on {target}",
  pending_mine_self: "You play {card}: {effect} on yourself",
  pending_mine_all: "You play {card}: {effect} on everyone",
  pending_on_you: "{who} plays {card}: {effect} on you",
  resolving_you: "Resolving for you",
  block_ask_one: "{who} plays {card}: {effect} on {target}. Block it?",
  block_ask_you: "{who} plays {card}: {effect} on you. Block it?",
  block_ask_all: "{who} plays {card}: {effect} on everyone. Block it?",
  target_yourself: "Target yourself",
  play_summary_self: "Play {card}: {effect} on yourself?",
  self_LOSE_1: "Lose 1 life yourself?",
  self_EVEN_DOWN: "Lose 1 life yourself?",
  self_GIVE_NEIGHBOR: "Give 1 of your own lives to a neighbour?",
  self_BLAST: "Lose 2 lives yourself (and your neighbours lose 1 each)?",
  self_HALVE_EVEN: "Halve your own lives?",
  self_all: "This hits you too: you lose {n}.",
  self_out: "You have {lives}: this knocks you out of the game.",
  self_left: "You would be left with {lives}.",
  self_confirm: "Yes, play it", self_cancel: "Cancel",
}, {
  pending_mine_one: "Hraješ {card}: {effect} na hráče {target}",
  pending_mine_self: "Hraješ {card}: {effect} na sebe",
  pending_mine_all: "Hraješ {card}: {effect} na všechny",
  pending_on_you: "{who} hraje {card}: {effect} na tebe",
  resolving_you: "Vyhodnocuje se pro tebe",
  block_ask_one: "{who} hraje {card}: {effect} na hráče {target}. Zablokovat?",
  block_ask_you: "{who} hraje {card}: {effect} na tebe. Zablokovat?",
  block_ask_all: "{who} hraje {card}: {effect} na všechny. Zablokovat?",
  target_yourself: "Cíl: ty",
  play_summary_self: "Zahrát {card}: {effect} na sebe?",
  self_LOSE_1: "Opravdu si ubrat 1 život?",
  self_EVEN_DOWN: "Opravdu si ubrat 1 život?",
  self_GIVE_NEIGHBOR: "Opravdu dát 1 svůj život sousedovi?",
  self_BLAST: "Opravdu si ubrat 2 životy (a sousedům po 1)?",
  self_HALVE_EVEN: "Opravdu si vydělit životy dvěma?",
  self_all: "Zasáhne to i tebe: ztratíš {n}.",
  self_out: "Máš {lives}: tohle tě vyřadí ze hry.",
  self_left: "Pak budeš mít {lives}.",
  self_confirm: "Ano, zahrát", self_cancel: "Zrušit",
});

/** Lives a player with `lives` loses to `kind` aimed at him (R9: the conditions hold, or the
 * play is not legal on him; on everyone, only a player who meets them is hit). 0: no harm.
 * SWAP_NEIGHBOR is left out: whether it costs depends on the neighbour he then picks. */
export function selfLoss(kind, lives) {
  if (kind === "LOSE_1" || kind === "GIVE_NEIGHBOR") return 1;
  if (kind === "EVEN_DOWN") return lives % 2 === 0 ? 1 : 0;
  if (kind === "BLAST") return lives >= 4 ? 2 : 0;
  if (kind === "HALVE_EVEN") return lives % 2 === 0 ? lives / 2 : 0;
  return 0;
}

/** The warning to confirm before `play` ({kind, scope, target}) by the player at seat `me`
 * with `lives`, or null when it costs him nothing. Aimed at himself: any loss asks; on
 * everyone: only a loss that knocks him out asks (he chose "everyone" knowing he is in it). */
export function selfWarning({ kind, scope, target }, me, lives) {
  const loss = selfLoss(kind, lives);
  if (!loss) return null;
  const out = lives - loss < 1;
  if (scope === "all" && !out) return null;
  if (scope === "one" && target !== me) return null;
  const question = scope === "all" ? t("self_all", { n: count("lives", loss) }) : t(`self_${kind}`);
  const after = out ? t("self_out", { lives: count("lives", lives) })
    : t("self_left", { lives: count("lives", lives - loss) });
  return { question, after, out };
}

/** The words of the pending play as `me` reads it: "You play …", "… on yourself", "… on you". */
export function pendingKey(pending, me) {
  const all = pending.scope === "all";
  if (me === null || me === undefined) return all ? "pending_all" : "pending_one";
  if (pending.seat === me) return all ? "pending_mine_all" : pending.target === me ? "pending_mine_self" : "pending_mine_one";
  return !all && pending.target === me ? "pending_on_you" : all ? "pending_all" : "pending_one";
}
