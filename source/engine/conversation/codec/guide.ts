import type {LayerName} from './decode.js';

export type GuideKeys = {joinKey?: string; refKey?: string};

/**
 * The `guide` a packet carries: how to undo each layer it uses, in the order to undo them, with
 * the packet's own keys filled in. Short on purpose: it is paid for on every page.
 */
export function guideFor(layers: readonly LayerName[], keys: GuideKeys): string {
	const steps: string[] = [];
	for (const layer of layers) {
		switch (layer) {
			case 'attachments':
				steps.push('attachments: {"attachment":n} = a value left out, at attachments[n] (records[record].event + pointer); engi read <session_id> --lines <line> --attachment <pointer> --expect-sha256 <sha256> returns it.');
				break;
			case 'edges':
				steps.push(`edges: {${JSON.stringify(keys.joinKey)}:[…]} = its items joined, a number n = fragments[n].`);
				break;
			case 'strings':
				steps.push(`strings: {${JSON.stringify(keys.refKey)}:n} = texts[n].`);
				break;
			case 'rows':
				steps.push('rows: records = rows [line, l, values] as {line, ...layouts[l].shared, fields[i]: values[i]} (under layouts[l].in if set), added to page.');
				break;
			default:
				break;
		}
	}

	return `engi packet (docs/encodings.md): undo layers outside in, each "page" holding the next. ${steps.join(' ')}`;
}
