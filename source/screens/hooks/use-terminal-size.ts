import {useEffect, useState} from 'react';
import {useStdout} from 'ink';

/** Columns and rows of the terminal, updated on resize (Ink 6 has no hook for this). */
export function useTerminalSize(fallback = {columns: 80, rows: 24}): {columns: number; rows: number} {
	const {stdout} = useStdout();
	const read = () => ({columns: stdout.columns || fallback.columns, rows: stdout.rows || fallback.rows});
	const [size, setSize] = useState(read);
	useEffect(() => {
		const onResize = () => setSize(read());
		stdout.on('resize', onResize);
		return () => {
			stdout.off('resize', onResize);
		};
	}, [stdout]);
	return size;
}
