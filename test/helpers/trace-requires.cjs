// Preloaded with `node --require`: records the file of every CommonJS module the process
// requires into the file named by ENGI_TRACE_FILE (as a file: URL, beside trace-imports.mjs's
// lines), so a test can prove which packages a call through build/chunks/main.cjs loaded.
const Module = require('node:module');
const {appendFileSync} = require('node:fs');
const {pathToFileURL} = require('node:url');

const load = Module._load;
Module._load = function (request, parent, isMain) {
	if (process.env.ENGI_TRACE_FILE && !request.startsWith('node:') && !Module.isBuiltin(request)) {
		try {
			appendFileSync(process.env.ENGI_TRACE_FILE, pathToFileURL(Module._resolveFilename(request, parent, isMain)).href + '\n');
		} catch {
			// Unresolvable: the require itself will say so.
		}
	}

	return load.apply(this, arguments);
};
