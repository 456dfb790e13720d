// The runs tab's pure parts (src/serve/assets/runs.js): the report's Markdown and tables,
// with everything from a run's files escaped.
import { test } from "node:test";
import assert from "node:assert/strict";
import { escapeHtml, markdown, table } from "../../src/serve/assets/runs.js";

test("the report's Markdown: headings, tables, lists, code, paragraphs", () => {
  const html = markdown("# Run\n\nSome **bold** and `code`\ntext.\n\n| agent | Elo |\n|---|---:|\n| easy | 1500 |\n\n- one\n- two\n\n```\nc4 <x>\n```");
  assert.match(html, /^<h1>Run<\/h1>/);
  assert.match(html, /<p>Some <strong>bold<\/strong> and <code>code<\/code> text\.<\/p>/);
  assert.match(html, /<table><thead><tr><th>agent<\/th><th>Elo<\/th><\/tr><\/thead><tbody><tr><td>easy<\/td><td>1500<\/td><\/tr><\/tbody><\/table>/);
  assert.match(html, /<ul><li>one<\/li><li>two<\/li><\/ul>/);
  assert.match(html, /<pre><code>c4 &lt;x&gt;<\/code><\/pre>/);
});

test("nothing from a run's files becomes markup", () => {
  assert.equal(escapeHtml(`<img src=x onerror="a">'&`), "&lt;img src=x onerror=&quot;a&quot;&gt;&#39;&amp;");
  assert.doesNotMatch(markdown("# <script>alert(1)</script>"), /<script>/);
  assert.equal(table(["a<"], [["<b>"]]), "<table><thead><tr><th>a&lt;</th></tr></thead><tbody><tr><td>&lt;b&gt;</td></tr></tbody></table>");
});
