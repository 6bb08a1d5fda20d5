/** `3 ok, 1 failed`, and the calls without a result when there are any. */
export const commandCounts = (counts: {ok: number; failed: number; no_result: number} | null) => (counts === null ? '' : `${counts.ok} ok, ${counts.failed} failed${counts.no_result > 0 ? `, ${counts.no_result} no result` : ''}`);
