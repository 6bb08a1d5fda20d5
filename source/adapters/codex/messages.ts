import type {SessionEvent} from '../events.js';
import {mediaNote, withNoteLines} from '../shared/media.js';
import {parseBoundedJson} from '../../lib/json-depth.js';
import {isInjectedText, isRecord, opensWith, textOf} from '../shared/text.js';
import {realtimeDelegationEvent} from './realtime.js';

/**
 * Text Codex puts into `user`-role messages that no person typed: environment, instruction and
 * skill injections, the `!cmd` shell envelope, interruption and subagent notices, hook prompts,
 * a review's outcome and the compaction prompt. Codex compares these tags case-insensitively.
 */
const injectedPrefixes = [
	'<environment_context>',
	'<user_instructions>',
	'# agents.md instructions',
	'<permissions instructions>',
	'<skill>',
	'<user_shell_command>',
	'<turn_aborted>',
	'<subagent_notification>',
	'<context_update>',
	'<tool_context>',
	'<reasoning_context>',
	'<pinned_notes>',
	'<plugins>',
	'<subagents>',
	'<instructions>',
	// A hook's prompt fed back into the thread (a Stop hook that keeps the turn going).
	'<hook_prompt',
	// What a /review handed back to the thread: its findings, or a note that it was interrupted.
	'<user_action>',
	// Contextual fragments of newer builds (codex-rs core/src/context/: the plugins it recommends at
	// startup, goal and extension steering, `<codex_internal_context source="…">`, hook or app
	// context as `<external_<key>>`, message-board notices).
	'<recommended_plugins>',
	'<goal_context>',
	'<extension_context>',
	'<codex_internal_context',
	'<external_',
	'<agent_message_board_notification>',
	// The task a voice conversation hands Codex (realtime.ts reads it as the voice agent's).
	'<realtime_delegation>',
	// The desktop app's note of what its in-app browser shows (`source="ambient-ui-state"`).
	'<in-app-browser-context',
	// What Codex writes in place of an image or audio file it could not attach to a prompt, beside
	// the typed text (codex-rs protocol models.rs, local_media_error_placeholder and the like).
	'codex could not read the local image at `',
	'codex could not read the local audio at `',
	'image located at `',
	'codex cannot attach image at `',
	'codex cannot attach audio at `',
	// Warnings older builds wrote into the thread as user text (still recognised by Codex for old sessions).
	'warning: the maximum number of unified exec processes you can keep open is',
	'warning: apply_patch was requested via ',
	'warning: your account was flagged for potentially high-risk cyber activity',
	'you are performing a context checkpoint compaction',
];

/** Openings of the summary Codex writes into history after a compaction. */
const summaryPrefixes = ['another language model started to solve this problem', 'you were originally given instructions from a user over one or more turns.'];

/**
 * Envelopes a client wraps around a typed request, the request after their last `## My request
 * for Codex:` heading (`## My request:` in newer clients): the VS Code extension's IDE context,
 * and the desktop app's list of files the person attached (`# Files mentioned by the user:`, each
 * `## <name>: <path>`, then the heading). The request may follow on the heading's own line.
 * Codex's own heading (USER_MESSAGE_BEGIN) marks the request whatever precedes it: Codex names a
 * thread by the text after it (codex-rs state extract.rs, strip_user_message_prefix); the
 * shorter `## My request:` only inside an envelope, where no person's markdown could be taken
 * for it.
 */
const requestEnvelopes = ['# Context from my IDE setup:', '# Files mentioned by the user:'];
const requestHeading = /^## My request(?: for Codex)?:/gm;
const codexRequestHeading = '## My request for Codex:';

export type UserTextKind = 'human' | 'injected' | 'summary';

export function classifyUserText(text: string): UserTextKind {
	if (opensWith(text, summaryPrefixes, {caseless: true})) {
		return 'summary';
	}

	return isInjectedText(text) || opensWith(text, injectedPrefixes, {caseless: true}) ? 'injected' : 'human';
}

/**
 * The request a person typed inside a client's envelope or after Codex's request heading, or the
 * text unchanged (also when the envelope holds no request: files attached without a word are
 * still the person's doing).
 */
export function typedRequest(text: string): string {
	const enveloped = opensWith(text, requestEnvelopes);
	const headings = [...text.matchAll(requestHeading)].filter(heading => enveloped || heading[0] === codexRequestHeading);
	const last = headings.at(-1);
	const request = last === undefined ? '' : text.slice(last.index + last[0].length).trim();
	const typed = request === '' ? text : request;
	return questionReplyAnswers(typed) ?? typed;
}

const replyOpen = '<send_user_message_question_reply>';
const replyClose = '</send_user_message_question_reply>';

/**
 * The answers of the desktop app's reply to queued questions (`request_user_input_async`):
 * `<send_user_message_question_reply>`, a JSON list of `{questionItemId, question, answer}`, the
 * closing tag. The answers are what the person wrote; the ids are the app's. Undefined when the
 * text is not such a reply or holds no answer, so it is read as written.
 */
function questionReplyAnswers(text: string): string | undefined {
	const trimmed = text.trim();
	if (!trimmed.startsWith(replyOpen) || !trimmed.endsWith(replyClose)) {
		return undefined;
	}

	let rows: unknown;
	try {
		rows = parseBoundedJson(trimmed.slice(replyOpen.length, -replyClose.length));
	} catch {
		return undefined;
	}

	const answers = Array.isArray(rows) ? rows.flatMap(row => (isRecord(row) && typeof row['answer'] === 'string' && row['answer'].trim() !== '' ? [row['answer'].trim()] : [])) : [];
	return answers.length === 0 ? undefined : answers.join('\n');
}

/** The working directory stated by an `<environment_context>` injection (bare-era files). */
export function cwdFromEnvironment(text: string): string | undefined {
	const match = /<environment_context>[\s\S]*?<cwd>([^<]+)<\/cwd>/i.exec(text);
	return match?.[1]?.trim() || undefined;
}

/**
 * The compaction summary a `compacted` record's `replacement_history` holds: the latest user
 * message that opens as a summary. Newer builds leave the record's own `message` empty and keep
 * the summary only there (openai/codex#27016); a remote compaction's history holds an opaque
 * `compaction` item instead, so there may be none. Also reads `replacement_history_entries`.
 */
export function historySummary(history: unknown): string | undefined {
	if (!Array.isArray(history)) {
		return undefined;
	}

	for (let index = history.length - 1; index >= 0; index--) {
		const entry: unknown = history[index];
		// A `replacement_history_entries` entry holds its item `inline`; a reference holds no text.
		const item = isRecord(entry) && entry['type'] === 'inline' ? entry['item'] : entry;
		if (!isRecord(item) || item['type'] !== 'message' || item['role'] !== 'user') {
			continue;
		}

		const summary = textBlocks(item['content']).find(text => classifyUserText(text) === 'summary');
		if (summary !== undefined) {
			return summary;
		}
	}

	return undefined;
}

/** Text blocks of a message's content, each on its own: one block may be injected, the next typed. */
export function textBlocks(content: unknown): string[] {
	return taggedTextBlocks(content, undefined).map(block => block.text);
}

/**
 * Text blocks as textBlocks gives them, each marked when the kind Codex tagged its content item
 * with says the harness wrote it (harnessItems).
 */
export function taggedTextBlocks(content: unknown, passthrough: unknown): Array<{text: string; harness: boolean}> {
	if (!Array.isArray(content)) {
		const single = textOf(content);
		return single.trim() === '' ? [] : [{text: single, harness: false}];
	}

	const harness = harnessItems(passthrough, content.length);
	const framed = content.some(block => isInputMedia(block));
	return content
		.map((block, index) => ({
			text: (framed && isMediaTag(content, index)) || !(isRecord(block) || typeof block === 'string') ? '' : textOf([block]),
			harness: harness[index] === true,
		}))
		.filter(block => block.text.trim() !== '');
}

/**
 * Newer builds tag each content item of a message with its kind
 * (`internal_chat_message_metadata_passthrough.content_item_kinds`, one string per item):
 * `user.*` for what the person gave, `unknown` for items of older history, and a kind of the
 * harness's own (`generic.additional_context`, `agents_md.instructions`, …) for what Codex put
 * beside it, whatever that text opens with. A list that does not line up with the content item
 * for item says nothing.
 */
function harnessItems(passthrough: unknown, count: number): boolean[] {
	const kinds = isRecord(passthrough) ? passthrough['content_item_kinds'] : undefined;
	if (!Array.isArray(kinds) || kinds.length !== count) {
		return [];
	}

	return kinds.map(kind => typeof kind === 'string' && kind !== '' && kind !== 'unknown' && !kind.startsWith('user.'));
}

/**
 * Codex wraps an image or audio file attached to a prompt in tags of its own, each its own
 * content item: `<image name=[Image #1] path="…">` (or `<image>` for a web image), the
 * `input_image`, then `</image>`; `<audio name=[Audio #1] path="…">`, the `input_audio`, then
 * `</audio>`. Only a tag beside its medium is one: the same text typed elsewhere is the person's.
 */
function isMediaTag(content: readonly unknown[], index: number): boolean {
	const text = textOf([content[index]]);
	const opening = /^<(image|audio)(?: name=[^\n]*)?>$/.exec(text);
	if (opening) {
		return isInputMedia(content[index + 1], opening[1]);
	}

	const closing = /^<\/(image|audio)>$/.exec(text);
	return closing !== null && isInputMedia(content[index - 1], closing[1]);
}

/** An `input_image` or `input_audio` content item (of the kind given, when one is). */
function isInputMedia(block: unknown, kind?: string): boolean {
	return isRecord(block) && (kind === undefined ? block['type'] === 'input_image' || block['type'] === 'input_audio' : block['type'] === `input_${kind}`);
}

/**
 * Events for the text blocks of a `user`, `developer` or `system` message. Developer and system
 * messages are instructions the host sends: one non-human event. In a user message, runs of
 * blocks of one kind become one event, so a typed request split over blocks stays one turn while
 * an injection beside it stays apart. Nothing a parent agent wrote into a subagent's thread is
 * human.
 */
export function userTextEvents(blocks: string[], base: Omit<SessionEvent, 'kind'>, options: {role: string; subagent: boolean; harness?: readonly boolean[]}): SessionEvent[] {
	if (options.role !== 'user') {
		return blocks.length === 0 ? [] : [{...base, kind: 'user', text: blocks.join('\n'), human: false}];
	}

	const runs: Array<{kind: UserTextKind; texts: string[]}> = [];
	// A client's context around the typed text is the host's, as an item the harness tagged is.
	const parts = blocks.flatMap((block, index) =>
		apartFromClientContext(block).flatMap(part => (part.client ? [{text: part.text, harness: true}] : withoutLeadingContext(part.text).map(text => ({text, harness: options.harness?.[index] === true})))),
	);
	for (const {text, harness} of parts) {
		const kind = harnessKind(classifyUserText(text), harness);
		const last = runs.at(-1);
		if (last && last.kind === kind && kind !== 'injected') {
			last.texts.push(text);
		} else {
			runs.push({kind, texts: [text]});
		}
	}

	return runs.map(({kind, texts}): SessionEvent => {
		const text = texts.join('\n');
		if (kind === 'summary') {
			return {...base, kind: 'summary', text};
		}

		const delegated = kind === 'injected' ? realtimeDelegationEvent(text, base) : undefined;
		if (delegated) {
			return delegated;
		}

		const human = kind === 'human' && !options.subagent;
		// In a spawned thread the prompts are the parent agent's.
		return {...base, kind: 'user', text: human ? typedRequest(text) : text, human, ...(kind === 'human' && options.subagent ? {origin: 'agent' as const} : {})};
	});
}

/**
 * A text block that opens with Codex's `<environment_context>` block, or the desktop app's
 * `<in-app-browser-context …>` (the page its browser shows), and goes on after it: the context
 * and what follows, apart, so typed text written into the same block after the context is read
 * on its own (tuo-lei/vibe-replay provider-codex constants.ts strips leading context blocks
 * before the request; scottzx/session-reader util/text.ts strips the browser's). A block that is
 * the context alone, or one never closed, is left whole.
 */
const leadingContext = /^\s*(?:<environment_context>[\s\S]*?<\/environment_context>|<in-app-browser-context\b[^>]*>[\s\S]*?<\/in-app-browser-context>)/i;

function withoutLeadingContext(text: string): string[] {
	const match = leadingContext.exec(text);
	const rest = match ? text.slice(match[0].length) : '';
	return match && rest.trim() !== '' ? [match[0].trim(), rest.trim()] : [text];
}

/**
 * What slopus/happy writes into the prompt text of a Codex turn it runs around what the person
 * typed (happy-cli codex/codexPrompt.ts, buildCodexTurnPrompt): its app's instructions, the
 * runtime settings it applied and the ask to title the chat, each between
 * `<!-- happy:system-prompt:start -->` and `<!-- happy:system-prompt:end -->`, an origin token
 * `<!-- happy:paws-origin:… -->`, a note of the images it attached ("Happy attached 2
 * user-uploaded images to this Codex turn." and their paths, before a marker), and in older
 * releases the runtime settings unmarked at the head. Happy's own readers drop these to show the
 * request (happy-app getUserMessageDisplayText, happy-cli pawsCodexText). Releases before the
 * markers wrote the app's options instructions before the message and the title ask after it
 * (`message + "\n\n" + "Based on this message, call functions.happy__change_title …"`). The
 * context and the request, apart; the text unchanged when it holds no such context.
 */
const clientMarker = '<!-- happy:';
const legacySettings = 'Happy has already applied these Codex runtime settings';
const legacyHead = /^\s*# Options\s/;
const legacyTitleAsk = '__change_title';
const clientContext = new RegExp(
	[
		String.raw`<!-- happy:system-prompt:start -->[\s\S]*?(?:<!-- happy:system-prompt:end -->|$)`,
		String.raw`<!-- happy:paws-origin:[\s\S]*?-->`,
		String.raw`^[\t\r\n ]*Happy attached \d+ user-uploaded images? to this Codex turn\.[\s\S]*?(?=<!-- happy:(?:paws-origin:|system-prompt:start))`,
		String.raw`^Happy has already applied these Codex runtime settings for this turn: [^\n]*? do not look for a tool or API to change it\.`,
		// Older releases, unmarked: the app's options instructions at the head, through the last
		// sentence of their plan-mode section, and the ask to title the chat at the end.
		String.raw`^\s*# Options\s+You have a way to give a user a easy way to answer your questions[\s\S]*?you\s+must\s+use\s+the\s+options\s+mode\.`,
		String.raw`(?:^|\n)[\t ]*Based on this message, call functions\.\w+__change_title\b[\s\S]*$`,
	].join('|'),
	'gi',
);

function apartFromClientContext(text: string): Array<{text: string; client: boolean}> {
	if (!text.includes(clientMarker) && !text.startsWith(legacySettings) && !legacyHead.test(text) && !text.includes(legacyTitleAsk)) {
		return [{text, client: false}];
	}

	const context: string[] = [];
	const rest = text.replace(clientContext, found => {
		context.push(found.trim());
		return '\n';
	});
	const request = rest.replace(/\n{3,}/g, '\n\n').trim();
	if (context.length === 0) {
		return [{text, client: false}];
	}

	return [{text: context.join('\n\n'), client: true}, ...(request === '' ? [] : [{text: request, client: false}])];
}

/** A block its content item kind says the harness wrote is injected, unless it is a compaction summary. */
function harnessKind(kind: UserTextKind, harness: boolean): UserTextKind {
	return harness && kind === 'human' ? 'injected' : kind;
}

/**
 * Notes of the images and audio a user message's content sent (`input_image` and `input_audio`
 * parts: a `data:` URL, noted by its media type, or a web address, kept), one each; the payload
 * never copied.
 */
export function itemMediaNotes(content: unknown): string[] {
	return Array.isArray(content) ? content.flatMap(block => (isInputMedia(block) ? [mediaNote(block) ?? '[file]'] : [])) : [];
}

/**
 * Notes of the images a `user_message` event names: `images`, the URLs sent as given, then
 * `local_images`, the paths of files Codex read and sent (codex-rs protocol UserMessageEvent).
 * A path is noted as it is, as a web address is; entries of any other type are skipped.
 */
export function eventImageNotes(images: unknown, localImages: unknown): string[] {
	const listed = [images, localImages].flatMap(list => (Array.isArray(list) ? list : []));
	return listed.flatMap(entry => (typeof entry === 'string' && entry !== '' ? [mediaNote({type: 'input_image', image_url: entry}) ?? '[image]'] : []));
}

export type PromptOptions = {
	subagent: boolean;
	/**
	 * A view_image call awaits the model's next reply. Older builds' view_image attached the
	 * picture by injecting it into the thread as a user message of that image alone, written
	 * before the model's next reply (openai/codex codex-rs/core/src/tools/handlers/view_image.rs,
	 * `inject_input(vec![UserInput::LocalImage { path }])`): images without a word are then the
	 * tool's, no request.
	 */
	viewedImage: boolean;
	/** Whether a request is the first of its two channels' copies (echoes.ts). */
	firstCopy: (text: string) => boolean;
};

/**
 * A prompt's events with its images noted after the typed text, one a line, as Gemini CLI and
 * Qwen Code prompts are: on the last request the text gave, so a prompt stays one turn; images
 * sent without a word are a request whose text is their notes. `firstCopy` is asked, for each
 * request, whether it is the first of its two channels' copies, given the typed text alone (a
 * bare `[image]` for images without a word): the channels note an image differently (the item
 * holds a local file as a `data:` URL, the event as its path), and an event of a build that
 * listed no images must still match its item.
 */
export function withImageNotes(said: SessionEvent[], images: string[], base: Omit<SessionEvent, 'kind'>, options: PromptOptions): SessionEvent[] {
	const {subagent, firstCopy} = options;
	const isRequest = (event: SessionEvent) => event.kind === 'user' && (event.human === true || event.origin === 'agent');
	const toolsOwn = options.viewedImage && !said.some(isRequest);
	const notes = toolsOwn ? [] : images;
	const asked = notes.length === 0 || said.some(isRequest) ? said : [...said, {...base, kind: 'user' as const, text: '', human: !subagent, ...(subagent ? {origin: 'agent' as const} : {})}];
	const at = notes.length === 0 ? -1 : asked.findLastIndex(isRequest);
	const key = (text: string) => (text.trim() === '' ? '[image]' : text);
	return asked.flatMap((event, index) => {
		if (event.kind !== 'user') {
			return [event];
		}

		if (index !== at) {
			return firstCopy(event.text ?? '') ? [event] : [];
		}

		const typed = event.text ?? '';
		return firstCopy(key(typed)) ? [{...event, text: withNoteLines(typed, notes)}] : [];
	});
}

/**
 * The block Codex appends to a reply that drew on its memory files: `<oai-mem-citation>` holding
 * `<citation_entries>` (`MEMORY.md:12-14|note=[…]`) and `<rollout_ids>`. Codex lifts it out of
 * what it shows (codex-rs utils/stream-parser, CitationStreamParser), so it is no reply text; the
 * rollout keeps it in both copies of the reply.
 */
const memoryCitation = /<oai-mem-citation>[\s\S]*?<\/oai-mem-citation>/g;

/** A reply's text as Codex shows it: without its memory citations (and the blank lines before them). */
export function visibleReply(text: string): string {
	return text.includes('<oai-mem-citation>') ? text.replace(memoryCitation, '').trimEnd() : text;
}

/**
 * A plan-mode reply's plan, `<proposed_plan>…</proposed_plan>`: Codex shows it as a plan card and
 * cuts it out of the agent_message it emits, while the response item keeps it (codex-rs core
 * stream_events_utils.rs, strip_hidden_assistant_markup). A block left open runs to the end.
 */
const proposedPlan = /<proposed_plan>([\s\S]*?)(?:<\/proposed_plan>|$)/g;

/**
 * A reply as the parts it shows: its text without memory citations and plan blocks, then each
 * plan's body. Each part is its own copy to match across channels (echoes.ts), so the event copy
 * without the plan still echoes the item's text, and the plan is read once from whichever has it.
 */
export function replyParts(text: string): string[] {
	const shown = visibleReply(text);
	if (!shown.includes('<proposed_plan>')) {
		return [shown];
	}

	const plans: string[] = [];
	const rest = shown.replace(proposedPlan, (_block, body: string) => {
		plans.push(body.trim());
		return '';
	});
	return [rest.trimEnd(), ...plans];
}
