import {useEffect, useLayoutEffect, useState} from 'react';
import {useKeys} from '../hooks/use-keys.js';
import type {QueryOutput} from '../../engine/knowledge/query-schema.js';
import type {EngineClient} from '../engine-client.js';
import {commandFor, typedText} from '../keys.js';
import {EmptyState, ErrorState} from '../components/states.js';
import {noKnowledgeBase} from '../project/index.js';
import {QueryView} from './view.js';
import {plural} from '../../lib/words.js';

export type QueryProps = {readonly client: EngineClient; readonly active: boolean; readonly width: number; readonly height: number; readonly initial?: string; readonly onCapture: (capturing: boolean) => void; readonly onCounts: (counts: string) => void};

export function Query({client, active, width, height, initial, onCapture, onCounts}: QueryProps) {
	const hasKb = client.hasKnowledgeBase();
	const [text, setText] = useState(initial ?? '');
	const [editing, setEditing] = useState(!initial);
	const [result, setResult] = useState<Extract<QueryOutput, {view: 'context'}> | null>(null);
	const [error, setError] = useState<string | null>(null);
	const run = (q: string) => {
		if (!q.trim()) {
			return;
		}

		client.query(q).then(
			output => {
				if (output.view === 'context') {
					setResult(output);
					setError(null);
					onCounts(`${plural(output.total, 'match', 'matches')} for “${q}”`);
				}
			},
			(failure: unknown) => setError(failure instanceof Error ? failure.message : String(failure)),
		);
	};

	useEffect(() => {
		if (initial && hasKb) {
			run(initial);
		}
	}, []);
	// A layout effect, so the app knows before the next key that q and esc belong to the field.
	useLayoutEffect(() => onCapture(active && editing && hasKb), [active, editing, hasKb]);
	useKeys(
		(input, key) => {
			if (editing) {
				const command = commandFor(['field'], input, key);
				const typed = typedText(input, key);
				if (command === 'dismiss') {
					setEditing(false);
				} else if (command === 'accept') {
					setEditing(false);
					run(text);
				} else if (command === 'erase') {
					setText(value => [...value].slice(0, -1).join(''));
				} else if (typed !== undefined) {
					setText(value => value + typed);
				}

				return;
			}

			if (commandFor(['query'], input, key) === 'edit-query') {
				setEditing(true);
			}
		},
		{isActive: active && hasKb},
	);

	if (!hasKb) {
		return <EmptyState title={noKnowledgeBase.title} hint={noKnowledgeBase.hint} />;
	}

	if (error) {
		return <ErrorState message={error} />;
	}

	return <QueryView text={text} editing={editing} result={result} width={width} height={height} />;
}
