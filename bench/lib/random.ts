/** A small seeded generator (mulberry32) so every corpus is the same on every run. */
export function seededRandom(seed: number) {
	let state = seed >>> 0;
	const next = () => {
		state = (state + 0x6d_2b_79_f5) >>> 0;
		let t = state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
	};

	return {
		next,
		int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
		pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!,
	};
}

const words = 'index journal session brief token parser adapter catalog project task decision review migrate refactor cache query schema render tail resume checkpoint budget search vocabulary segment latency throughput memory quarantine rebuild'.split(' ');

/**
 * `count` words picked at random. A loop pushing into an array: `Array.from` with a callback took
 * twice as long, and the L tier's generation spends most of its time here.
 */
export function sentence(random: ReturnType<typeof seededRandom>, count: number): string {
	const picked: string[] = [];
	for (let index = 0; index < count; index++) {
		picked.push(random.pick(words));
	}

	return picked.join(' ');
}

const chinese = '日志解析器 逐行 流式读取 内存 稳定 网络请求 重试 指数退避 随机抖动 全文检索 结巴分词 最大匹配 检查点 继承 并发写入 早会 汇总 阻塞项 下一步行动 密钥 脱敏 令牌预算 终端 仪表盘 快照测试 会话目录 缓存 方鸿渐 教授 留学 上海 银行'.split(' ');

export function chineseSentence(random: ReturnType<typeof seededRandom>, count: number): string {
	return Array.from({length: count}, () => random.pick(chinese)).join('');
}
