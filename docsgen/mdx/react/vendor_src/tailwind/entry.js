// docsgen's Tailwind entry point: Tailwind v3's own compiler (+ @tailwindcss/typography) as one function that
// QuickJS calls at build time. No file system, no network: the content is the class names docsgen collected.
import postcss from "postcss";
import processTailwindFeatures from "tailwindcss/lib/processTailwindFeatures.js";
import resolveConfig from "tailwindcss/resolveConfig.js";
import typography from "@tailwindcss/typography";
import preflight from "tailwindcss/lib/css/preflight.css";

// Tailwind's preflight (its reset) limited to the elements matching `scope`, each rule keeping its own
// specificity (the scope is inside :where). `only`: keep just the rules whose selector list includes it.
function scopedPreflight(scope, only) {
  const root = postcss.parse(preflight);
  root.walkRules((rule) => {
    if (only && !rule.selectors.includes(only)) {
      rule.remove();
      return;
    }
    const selectors = [];
    for (const selector of rule.selectors) {
      if (/^(html|:host|body)$/.test(selector)) continue; // the page's own font and margins stay the theme's
      const at = selector.indexOf("::");
      const where = `:where(${scope})`;
      selectors.push(at < 0 ? selector + where : selector.slice(0, at) + where + selector.slice(at));
    }
    if (selectors.length) rule.selectors = selectors;
    else rule.remove();
  });
  return root.toString();
}

// __dgTailwind(configJson, css, raw) starts the compile and returns an object that holds {css} or {error} once
// the engine has run its pending jobs (Tailwind's pipeline is asynchronous). Options docsgen adds to the
// config: `typography` (the plugin's options, or absent), `preflight` ([{scope, only}]: scoped resets).
globalThis.__dgTailwind = function (configJson, css, raw) {
  const config = JSON.parse(configJson);
  config.plugins = config.typography ? [typography(config.typography)] : [];
  const resets = (config.preflight || []).map((p) => scopedPreflight(p.scope, p.only)).join("\n");
  delete config.typography;
  delete config.preflight;
  config.content = [{ raw, extension: "html" }];
  const resolved = resolveConfig(config);
  const plugin = processTailwindFeatures(({ createContext }) => () =>
    createContext(resolved, [{ content: raw, extension: "html" }]));
  const out = { done: false };
  const input = resets ? css.replace("@tailwind components;", `${resets}\n@tailwind components;`) : css;
  postcss([plugin]).process(input, { from: undefined }).then(
    (result) => {
      result.root.walkComments((comment) => comment.remove());
      out.done = true;
      out.css = result.root.toString();
    },
    (error) => { out.done = true; out.error = String((error && error.message) || error); });
  return out;
};
