import { transform } from "sucrase";
import * as preact from "preact";
import * as hooks from "preact/hooks";
import { renderToString } from "preact-render-to-string";
globalThis.__dg = { transform, preact, hooks, renderToString };
