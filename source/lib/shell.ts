/** A word for a printed shell command: as is when plainly safe, else single-quoted. */
export function shellWord(text: string): string {
	return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replaceAll('\'', '\'\\\'\'')}'`;
}
