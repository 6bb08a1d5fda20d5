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
				steps.push('attachments: {"attachment":n} marks a value left out, where attachments[n] says (records[record].event + pointer); `engi read <session_id> --lines <line> --attachment <pointer> --expect-sha256 <sha256>` returns it.');
				break;
			case 'edges':
				steps.push(`edges: {${JSON.stringify(keys.joinKey)}:[…]} is the string of its items joined, a number n standing for fragments[n].`);
				break;
			case 'strings':
				steps.push(`strings: {${JSON.stringify(keys.refKey)}:n} is texts[n].`);
				break;
			case 'rows':
				steps.push('rows: each row [line, layout, values] is the record {line, ...layouts[layout].shared, fields[i]: values[i]}, nested under layouts[layout].in when it has one; records follow page\'s other keys.');
				break;
			default:
				break;
		}
	}

	return `engi packet (docs/encodings.md). Undo the layers from the outside in; each layer's "page" holds the next. ${steps.join(' ')}`;
}
