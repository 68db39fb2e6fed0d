// Hydrates interactive custom React components (state, effects, event handlers) rendered at build time.
// The build marks each one as
//   <dg-island data-module data-export data-props data-raw data-mdx>server HTML</dg-island>
// and writes each component module's code once per page as <script type="text/plain" data-dg-module>. This
// script is only included on such pages; it loads the vendored Preact (<root>_static/vendor/preact.min.js),
// runs the modules and hydrates each island, so the HTML stays and becomes live. Nothing comes from a CDN.
(() => {
  const islands = [...document.querySelectorAll("dg-island[data-module]")];
  if (!islands.length) return;
  const self = document.currentScript;
  const version = self ? new URL(self.src, location.href).search : "";
  const root = document.documentElement.dataset.root || "./";
  const src = new URL(`${root}_static/vendor/preact.min.js${version}`, document.baseURI).href;

  const load = () =>
    new Promise((resolve, reject) => {
      if (window.__dgPreact) return resolve(window.__dgPreact);
      const tag = document.createElement("script");
      tag.src = src;
      tag.onload = () => (window.__dgPreact ? resolve(window.__dgPreact) : reject(new Error("preact did not load")));
      tag.onerror = () => reject(new Error(`cannot load ${src}`));
      document.head.append(tag);
    });

  const start = ({ preact, hooks }) => {
    const h = preact.h;
    const children = (c) => preact.toChildArray(c);
    const React = {
      ...hooks,
      createElement: h,
      Fragment: preact.Fragment,
      createContext: preact.createContext,
      cloneElement: preact.cloneElement,
      isValidElement: preact.isValidElement,
      Children: {
        toArray: children,
        map: (c, fn) => children(c).map(fn),
        forEach: (c, fn) => children(c).forEach(fn),
        count: (c) => children(c).length,
        only: (c) => children(c)[0],
      },
    };
    React.default = React;
    const PACKAGES = { react: React, preact: React, "preact/hooks": React, "react/jsx-runtime": React };
    const HOOKS = {};
    for (const key in React) if (key.startsWith("use")) HOOKS[key] = React[key];

    // Mintlify components inside custom ones: the HTML docsgen rendered for them, keyed by name and props.
    const mdxHtml = {};
    for (const island of islands) Object.assign(mdxHtml, JSON.parse(island.dataset.mdx || "{}"));
    const stable = (value) => JSON.stringify(value, (key, v) => (typeof v === "function" ? undefined : v));
    const mintlify = (name) => (props) => {
      const { children: inner, ...rest } = props || {};
      const clean = JSON.parse(stable(rest) || "{}", (key, v) =>
        v && typeof v === "object" && v.__k !== undefined && v.type !== undefined ? undefined : v,
      );
      const html = mdxHtml[stable([name, clean])];
      const style = "display:contents";
      return html === undefined ? h("dg-mdx", { style }, inner) : h("dg-mdx", { style, dangerouslySetInnerHTML: { __html: html } });
    };
    const freeName = (name) => {
      if (name === "React") return React;
      if (Object.prototype.hasOwnProperty.call(HOOKS, name)) return HOOKS[name];
      if (name in window) return window[name];
      return mintlify(name);
    };

    const sources = {};
    for (const tag of document.querySelectorAll('script[type="text/plain"][data-dg-module]')) {
      sources[tag.dataset.dgModule] = {
        code: tag.textContent,
        deps: JSON.parse(tag.dataset.deps || "{}"),
        names: JSON.parse(tag.dataset.names || "[]"),
      };
    }
    const loaded = {};
    const loadModule = (id) => {
      if (loaded[id]) return loaded[id].exports;
      const source = sources[id];
      if (!source) throw new Error(`module ${id} is missing from the page`);
      const module = { exports: {} };
      loaded[id] = module;
      const require = (specifier) => {
        if (Object.prototype.hasOwnProperty.call(PACKAGES, specifier)) return PACKAGES[specifier];
        const target = source.deps[specifier];
        if (target && typeof target === "object") {
          const own = target.__module ? loadModule(target.__module) : {};
          return new Proxy(
            {},
            {
              get: (_, key) => {
                if (key === "__esModule") return true;
                if (key !== "default" && Object.prototype.hasOwnProperty.call(own, key)) return own[key];
                return mintlify(target[key] || String(key));
              },
            },
          );
        }
        if (typeof target !== "string") return {}; // reported at build time (a missing file, a package)
        return loadModule(target);
      };
      const factory = new Function(
        ...source.names,
        `return function (exports, require, module, __dgH, __dgF, React) {${source.code}\n};`,
      );
      factory(...source.names.map(freeName))(module.exports, require, module, h, preact.Fragment, React);
      return module.exports;
    };

    const revive = (value, raw) => {
      if (Array.isArray(value)) return value.map((v) => revive(v, raw));
      if (value && typeof value === "object") {
        if (typeof value.__dgRaw === "number") {
          const html = raw[value.__dgRaw] || "";
          return h("dg-html", { style: "display:contents", dangerouslySetInnerHTML: { __html: html } });
        }
        const out = {};
        for (const key in value) out[key] = revive(value[key], raw);
        return out;
      }
      return value;
    };

    for (const island of islands) {
      try {
        const exports = loadModule(island.dataset.module);
        const name = island.dataset.export;
        const locals = exports.__dgLocals;
        const component = locals && name in locals ? locals[name] : exports[name];
        const props = revive(JSON.parse(island.dataset.props || "{}"), JSON.parse(island.dataset.raw || "[]"));
        preact.hydrate(h(component, props), island);
        island.dataset.hydrated = "";
      } catch (error) {
        island.dataset.error = String(error);
        console.error(`docsgen: cannot hydrate <${island.dataset.export}>`, error);
      }
    }
  };

  load()
    .then(start)
    .catch((error) => console.error("docsgen:", error));
})();
