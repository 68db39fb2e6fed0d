// Server side of docsgen's React support, evaluated once per engine after the vendored bundle
// (themes/base/static/vendor/react-ssr.min.js, which sets globalThis.__dg = {transform, preact, hooks,
// renderToString}). Python calls __dgCompile, __dgDefine and __dgRender; everything else stays inside.
// The engine has no fetch, require, process, timers or file access: component code can only compute.
(() => {
  "use strict";
  const { transform, preact, hooks, renderToString } = globalThis.__dg;
  const h = preact.h;
  const modules = Object.create(null); // id -> {factory, deps: {specifier: id}, exports}
  let ctx = null; // the render in progress: {raw, mdx, interactive}

  const markInteractive = () => {
    if (ctx) ctx.interactive = true;
  };
  const createElement = (type, props, ...children) => {
    if (props && ctx && !ctx.interactive) {
      for (const key in props) {
        if (key.length > 2 && key[0] === "o" && key[1] === "n" && typeof props[key] === "function") {
          ctx.interactive = true;
          break;
        }
      }
    }
    return h(type, props, ...children);
  };
  const interactiveHook = (hook) =>
    function (...args) {
      markInteractive();
      return hook.apply(this, args);
    };
  const React = {
    ...hooks,
    useEffect: interactiveHook(hooks.useEffect),
    useLayoutEffect: interactiveHook(hooks.useLayoutEffect),
    createElement,
    Fragment: preact.Fragment,
    createContext: preact.createContext,
    cloneElement: preact.cloneElement,
    isValidElement: preact.isValidElement,
    Children: {
      toArray: (c) => preact.toChildArray(c),
      map: (c, fn) => preact.toChildArray(c).map(fn),
      forEach: (c, fn) => preact.toChildArray(c).forEach(fn),
      count: (c) => preact.toChildArray(c).length,
      only: (c) => preact.toChildArray(c)[0],
    },
  };
  React.default = React;
  const PACKAGES = { react: React, preact: React, "preact/hooks": React, "react/jsx-runtime": React };

  // Mintlify's components inside custom ones: a placeholder that Python expands with docsgen's own renderer.
  const stable = (value) => JSON.stringify(value, (key, v) => (typeof v === "function" ? undefined : v));
  const mintlify = (name) => {
    const Placeholder = (props) => {
      const { children, ...rest } = props || {};
      const inner = children === undefined ? "" : renderToString(h(preact.Fragment, null, children));
      const clean = JSON.parse(stable(rest) || "{}", (key, v) =>
        v && typeof v === "object" && v.__k !== undefined && v.type !== undefined ? undefined : v,
      );
      ctx.mdx.push({ name, props: clean, children: inner, sig: stable([name, clean]) });
      return h("dg-mdx", { "data-k": String(ctx.mdx.length - 1) });
    };
    Placeholder.displayName = name;
    return Placeholder;
  };

  // Free names a component may use without importing them, as on Mintlify: React, its hooks, the components.
  const freeName = (name) => {
    if (name === "React") return React;
    if (Object.prototype.hasOwnProperty.call(HOOKS, name)) return HOOKS[name];
    if (name in globalThis) return globalThis[name];
    return mintlify(name);
  };
  const HOOKS = {};
  for (const key in React) if (key.startsWith("use")) HOOKS[key] = React[key];

  // Props from Python: {"__dgRaw": k} stands for already rendered HTML (children, JSX-valued props).
  const revive = (value) => {
    if (Array.isArray(value)) return value.map(revive);
    if (value && typeof value === "object") {
      if (typeof value.__dgRaw === "number") return h("dg-raw", { "data-k": String(value.__dgRaw) });
      const out = {};
      for (const key in value) out[key] = revive(value[key]);
      return out;
    }
    return value;
  };

  const EMPTY = Object.freeze({});
  const load = (id) => {
    const mod = modules[id];
    if (!mod) throw new Error(`module ${id} is not loaded`);
    if (mod.exports) return mod.exports;
    const module = { exports: {} };
    mod.exports = module.exports;
    const require = (specifier) => {
      if (Object.prototype.hasOwnProperty.call(PACKAGES, specifier)) return PACKAGES[specifier];
      const target = mod.deps[specifier];
      if (target === undefined) return EMPTY; // reported by docsgen at the import (a missing file, a package)
      if (target && typeof target === "object") {
        // an .mdx snippet: its components are rendered by docsgen, under the name the page imported them as
        const own = target.__module ? load(target.__module) : {};
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
      return load(target);
    };
    try {
      mod.factory(...mod.names.map(freeName))(module.exports, require, module, createElement, preact.Fragment, React);
    } catch (error) {
      mod.exports = null;
      throw error;
    }
    mod.exports = module.exports;
    return module.exports;
  };

  // The error and its stack frames (function name, line): docsgen maps them to the file that defines them.
  const located = (error) => {
    const frames = [];
    const re = /at ([^\s(]*) ?\((?:[^():]*)(?::(\d+))?\)/g;
    let m;
    while ((m = re.exec(String((error && error.stack) || ""))) && frames.length < 50) {
      frames.push([m[1], Number(m[2] || 0)]);
    }
    const message = error instanceof Error ? `${error.name}: ${error.message}` : `thrown: ${String(error)}`;
    return { message, frames };
  };

  globalThis.__dgCompile = (source, jsx, typescript) => {
    try {
      const transforms = ["imports"];
      if (typescript) transforms.push("typescript");
      if (jsx) transforms.push("jsx");
      const code = transform(source, {
        transforms,
        jsxPragma: "__dgH",
        jsxFragmentPragma: "__dgF",
        production: true,
      }).code;
      return JSON.stringify({ code });
    } catch (error) {
      const m = /\((\d+):(\d+)\)/.exec(String(error.message));
      return JSON.stringify({
        error: `${error.name}: ${error.message}`,
        line: m ? Number(m[1]) : 0,
        column: m ? Number(m[2]) : 0, // sucrase points at the offending token, 1-based
      });
    }
  };

  globalThis.__dgDefine = (id, deps, names, factory) => {
    // changed code: modules that imported the old version must load again
    if (modules[id]) for (const key in modules) modules[key].exports = null;
    modules[id] = { factory, deps, names, exports: null };
  };

  globalThis.__dgRender = (id, name, propsJson) => {
    ctx = { mdx: [], interactive: false };
    try {
      const exports = load(id);
      const locals = exports.__dgLocals;
      const component = locals && name in locals ? locals[name] : exports[name];
      if (typeof component !== "function" && !(component && typeof component === "object")) {
        const what = component === undefined ? "undefined" : `a ${typeof component}, not a component`;
        return JSON.stringify({ error: `${name} is ${what} in its module`, frames: [], thrown: false });
      }
      const props = revive(JSON.parse(propsJson));
      const element = typeof component === "function" ? h(component, props) : component;
      const html = renderToString(element);
      return JSON.stringify({ html, mdx: ctx.mdx, interactive: ctx.interactive });
    } catch (error) {
      const where = located(error);
      return JSON.stringify({ error: where.message, frames: where.frames, thrown: true });
    } finally {
      ctx = null;
    }
  };
})();
