/** Words too common to narrow a search; a query made only of these keeps them. */
export const stopwords: ReadonlySet<string> = new Set(
	'a an and are as at be but by for from has have how i in into is it its of on or that the this to was were what when where which who why will with you your 的 了 是 在 和 与 或 及'.split(' '),
);
