// How a seat is named on every page (the rule of games/engine/names.py, mirrored from the same
// view data): a person by his username, a bot as "bot#<seat>" (every bot's username is "bot"),
// a free seat null (the page words it: "free seat", "seat N").

/** `player` is a view's players[] entry ({seat, username, bot}). */
export function seatName(player) {
  if (player.username === null || player.username === undefined) return null;
  return player.bot ? `${player.username}#${player.seat}` : player.username;
}
