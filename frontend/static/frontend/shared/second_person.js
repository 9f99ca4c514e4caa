// The table speaks to the player about himself (issue 18): "you", never his own name, in the
// pending play and the prompts, and a confirmation before an effect he aims at himself would
// cost him lives ("Lose 1 life yourself?"; at 1 life it says that this knocks him out). What an
// effect costs him, and the question, come with the card words (#card-words: `rules` is the
// engine's effect table, games/engine/effects.py; the words games/engine/effect_words.py).

import { CARD_WORDS } from "./glossary.js";
import { count, LANG, t } from "./i18n.js";


/** Lives a player with `lives` loses to `kind` aimed at him, from the effect table's `loss`
 * (R9: 0 where the condition fails; a gain is no harm). A swap, a duel and the table-wide
 * effects cost nothing sure: that depends on the neighbour he picks, the dice, the table. */
export function selfLoss(kind, lives) {
  return CARD_WORDS.rules?.[kind]?.loss?.[lives] ?? 0;
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
  const question = scope === "all" ? t("self_all", { n: count("lives", loss) })
    : CARD_WORDS.effects[kind][LANG][2];
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
