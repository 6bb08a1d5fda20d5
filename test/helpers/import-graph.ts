// The import graph of source/, read with TypeScript's own parser, and the layering rules it must
// keep (docs/architecture.md "Layers"). test/boundaries.test.ts checks the real tree and, as a
// control, a small synthetic one that breaks every rule, so the check is known to be able to fail.
import {existsSync, readdirSync, readFileSync, statSync} from 'node:fs';
import {dirname, join, relative, resolve} from 'node:path';
import ts from 'typescript';

export type ImportEdge = {
	/** The importing module, relative to the source root (`engine/catalog/list.ts`). */
	readonly from: string;
	/** A module of ours relative to the source root, or a package specifier (`ink`, `node:fs`). */
	readonly to: string;
	readonly internal: boolean;
	/** Only types cross the edge (`import type`, `export type`, `typeof import(...)`): nothing runs. */
	readonly typeOnly: boolean;
	/** An `import()` expression: loaded when the code reaches it. */
	readonly dynamic: boolean;
};

export type ImportGraph = {readonly modules: readonly string[]; readonly edges: readonly ImportEdge[]};

/** Every .ts and .tsx file under a directory, relative to it, sorted. */
function sourceFiles(root: string, directory = root): string[] {
	return readdirSync(directory)
		.sort()
		.flatMap(name => {
			const path = join(directory, name);
			if (statSync(path).isDirectory()) {
				return sourceFiles(root, path);
			}

			return /\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [relative(root, path)] : [];
		});
}

/** `./x.js` from `a/b.ts` → `a/x.ts` (or `.tsx`), as NodeNext resolution finds the source file. */
function resolveRelative(root: string, from: string, specifier: string): string {
	const target = resolve(root, dirname(from), specifier);
	const bare = target.replace(/\.js$/, '');
	for (const candidate of [`${bare}.ts`, `${bare}.tsx`, target]) {
		if (existsSync(candidate) && statSync(candidate).isFile()) {
			return relative(root, candidate);
		}
	}

	return relative(root, target);
}

/** Whether an import or export declaration carries values, or only types. */
function declarationIsTypeOnly(node: ts.ImportDeclaration | ts.ExportDeclaration): boolean {
	if (ts.isExportDeclaration(node)) {
		if (node.isTypeOnly) {
			return true;
		}

		const clause = node.exportClause;
		return clause !== undefined && ts.isNamedExports(clause) && clause.elements.length > 0 && clause.elements.every(element => element.isTypeOnly);
	}

	const clause = node.importClause;
	if (!clause) {
		return false; // `import './x.js'` runs the module.
	}

	if (clause.isTypeOnly) {
		return true;
	}

	if (clause.name) {
		return false;
	}

	const bindings = clause.namedBindings;
	return bindings !== undefined && ts.isNamedImports(bindings) && bindings.elements.length > 0 && bindings.elements.every(element => element.isTypeOnly);
}

/** The imports of one file: declarations, `export … from`, `import()` calls and `typeof import()` types. */
export function importsOf(fileName: string, text: string): Array<{specifier: string; typeOnly: boolean; dynamic: boolean}> {
	const file = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, fileName.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
	const found: Array<{specifier: string; typeOnly: boolean; dynamic: boolean}> = [];
	const visit = (node: ts.Node): void => {
		if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
			found.push({specifier: node.moduleSpecifier.text, typeOnly: declarationIsTypeOnly(node), dynamic: false});
		} else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
			const [argument] = node.arguments;
			found.push({specifier: argument && ts.isStringLiteralLike(argument) ? argument.text : '<computed>', typeOnly: false, dynamic: true});
		} else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
			found.push({specifier: node.argument.literal.text, typeOnly: true, dynamic: true});
		}

		ts.forEachChild(node, visit);
	};

	visit(file);
	return found;
}

/** The graph of a source tree given as files (path relative to the root → text). */
export function graphOf(root: string, files: ReadonlyMap<string, string>): ImportGraph {
	const edges: ImportEdge[] = [];
	for (const [from, text] of files) {
		for (const {specifier, typeOnly, dynamic} of importsOf(from, text)) {
			const internal = specifier.startsWith('.');
			edges.push({from, to: internal ? resolveRelative(root, from, specifier) : specifier, internal, typeOnly, dynamic});
		}
	}

	return {modules: [...files.keys()], edges};
}

/** The import graph of every module under `root` (the repository's `source/`). */
export function readImportGraph(root: string): ImportGraph {
	return graphOf(root, new Map(sourceFiles(root).map(file => [file, readFileSync(join(root, file), 'utf8')])));
}

/** The layer a module belongs to: its first folder, or the file itself for top-level modules. */
function layerOf(module: string): string {
	return module.includes('/') ? module.slice(0, module.indexOf('/')) : module;
}

/** The faces: they adapt the engine to argv, a terminal or a protocol; the engine never knows them. */
const faces = new Set(['cli', 'commands', 'output', 'screens', 'mcp', 'demo', 'main.ts', 'cli.ts', 'commands.ts', 'tui.tsx']);
const uiPackage = /^(ink|react|react-dom|react-reconciler|ink-[\w-]+|@inkjs\/[\w-]+)(\/|$)/;

/**
 * Where an adapter may reach: `lib/`, its own folder, `adapters/shared/` and the adapters'
 * top-level modules (the registries, the types and the event model). The registries,
 * `adapters/index.ts` (adapters with their readers) and `adapters/stores.ts` (their stores), may
 * also reach every adapter's folder.
 */
function adapterMayImport(from: string, to: string): boolean {
	if (layerOf(to) === 'lib') {
		return true;
	}

	if (layerOf(to) !== 'adapters') {
		return false;
	}

	const parts = to.split('/');
	if (parts.length === 2 || parts[1] === 'shared' || from === 'adapters/index.ts' || from === 'adapters/stores.ts') {
		return true;
	}

	const own = from.split('/');
	return own.length > 2 && own[1] === parts[1];
}

/** Each import that breaks a layering rule, said as `from -> to: rule`. */
export function boundaryViolations(graph: ImportGraph): string[] {
	const violations: string[] = [];
	for (const module of graph.modules) {
		if (module.endsWith('.tsx') && module !== 'tui.tsx' && layerOf(module) !== 'screens') {
			violations.push(`${module}: only tui.tsx and screens/ hold JSX (it imports react)`);
		}
	}

	for (const edge of graph.edges) {
		const from = layerOf(edge.from);
		const arrow = `${edge.from} -> ${edge.to}`;
		if (!edge.internal) {
			if (uiPackage.test(edge.to) && edge.from !== 'tui.tsx' && from !== 'screens') {
				violations.push(`${arrow}: only tui.tsx and screens/ import ink or react`);
			}

			if (edge.to === '<computed>') {
				violations.push(`${arrow}: an import() of a computed name cannot be checked`);
			}

			continue;
		}

		const to = layerOf(edge.to);
		if (from === 'lib' && to !== 'lib') {
			violations.push(`${arrow}: lib/ imports nothing of ours but lib/`);
		} else if (from === 'adapters' && !adapterMayImport(edge.from, edge.to)) {
			violations.push(`${arrow}: adapters import only lib/, their own folder, adapters/shared/ and the adapters' top-level modules`);
		} else if (from === 'engine' && faces.has(to)) {
			violations.push(`${arrow}: the engine never imports a face (cli, commands, output, screens, mcp)`);
		} else if (from === 'engine' && to !== 'engine' && to !== 'adapters' && to !== 'lib') {
			violations.push(`${arrow}: the engine imports only the engine, adapters/ and lib/`);
		}
	}

	return violations;
}

/**
 * Circles among modules of ours (Tarjan's strongly connected components), each as its modules,
 * sorted. Type-only edges do not count: no code runs through them. `import()` does: a lazily
 * loaded module that imports its loader back is a circle all the same.
 */
export function importCycles(graph: ImportGraph): string[][] {
	const next = new Map<string, string[]>(graph.modules.map(module => [module, []]));
	for (const edge of graph.edges) {
		if (edge.internal && !edge.typeOnly && next.has(edge.to)) {
			next.get(edge.from)!.push(edge.to);
		}
	}

	let counter = 0;
	const index = new Map<string, number>();
	const low = new Map<string, number>();
	const stack: string[] = [];
	const onStack = new Set<string>();
	const cycles: string[][] = [];
	const connect = (module: string): void => {
		index.set(module, counter);
		low.set(module, counter);
		counter++;
		stack.push(module);
		onStack.add(module);
		for (const target of next.get(module)!) {
			if (!index.has(target)) {
				connect(target);
				low.set(module, Math.min(low.get(module)!, low.get(target)!));
			} else if (onStack.has(target)) {
				low.set(module, Math.min(low.get(module)!, index.get(target)!));
			}
		}

		if (low.get(module) === index.get(module)) {
			const component: string[] = [];
			let member: string;
			do {
				member = stack.pop()!;
				onStack.delete(member);
				component.push(member);
			} while (member !== module);
			if (component.length > 1 || next.get(module)!.includes(module)) {
				cycles.push(component.sort());
			}
		}
	};

	for (const module of graph.modules) {
		if (!index.has(module)) {
			connect(module);
		}
	}

	return cycles;
}
