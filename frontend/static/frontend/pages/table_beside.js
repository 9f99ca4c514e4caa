// The table page's second entry: the features beside the table, each mounting itself on its part
// of the page — the chat, "Play on" and the standing order. A module script of its own after
// pages/table.js, so it runs after the table has asked for its view: their requests do not
// delay the table's first render (bench.web: imported by table.js they cost ~300 ms).
import "../shared/chat.js";
import "../shared/forks.js";
import "../shared/orders.js";
