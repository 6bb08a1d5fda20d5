/** Session ids as the agents write them (uuids, `ses_…`): anything else is never put into a command line a person may paste. */
const pasteSafeId = /^[A-Za-z0-9._-]+$/;

/** `<command> <id>`, the agent's own resume command, or null for an id that is not a plain token. */
export function resumeCommand(command: string, id: string): string | null {
	return pasteSafeId.test(id) ? `${command} ${id}` : null;
}
