import { describe, expect, test } from "bun:test";
import { escapeHtml, jsonForScript } from "./html-escape.ts";

describe("escaping", () => {
  test("text and attribute values", () => {
    expect(escapeHtml(`<a href="x" title='y'>&amp;</a>`)).toBe("&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;amp;&lt;/a&gt;");
  });

  test("JSON in a script element cannot close it and reads back the same", () => {
    const value = { key: "</script><script>alert(1)</script>", other: "<!-- \u2028 \u2029" };
    const text = jsonForScript(value);
    expect(text).not.toContain("</");
    expect(text).not.toContain("<!--");
    expect(text).not.toMatch(/[\u2028\u2029]/);
    expect(JSON.parse(text)).toEqual(value);
  });
});
