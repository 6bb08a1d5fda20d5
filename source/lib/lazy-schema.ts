/**
 * A schema built on first use. The adapters' record schemas are only needed when a transcript
 * is read; a warm call that reads none should not pay for constructing dozens of them at start
 * (nor a query for its output schemas, which only `engi schema` and the MCP manifest read).
 * The proxy forwards every property to the schema once built, so it is used, composed and
 * typed exactly like the schema itself; a record of fields that several schemas spread in
 * (`...fields`) works the same way, through ownKeys.
 */
export function lazySchema<T extends object>(build: () => T): T {
	let schema: T | undefined;
	const built = () => (schema ??= build());
	return new Proxy({} as T, {
		get: (_target, property) => Reflect.get(built(), property) as unknown,
		has: (_target, property) => Reflect.has(built(), property),
		ownKeys: () => Reflect.ownKeys(built()),
		getOwnPropertyDescriptor: (_target, property) => {
			const descriptor = Reflect.getOwnPropertyDescriptor(built(), property);
			return descriptor ? {...descriptor, configurable: true} : undefined;
		},
		getPrototypeOf: () => Reflect.getPrototypeOf(built()),
	});
}
