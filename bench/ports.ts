/**
 * A port for a server the benchmarks start: at random in `span` ports from `base`, or, with BENCH_PORT_BASE set
 * (a machine shared with other work), in the 50 ports from there.
 */
export function benchPort(base: number, span: number): number {
  const given = process.env.BENCH_PORT_BASE;
  return given ? Number(given) + Math.floor(Math.random() * 50) : base + Math.floor(Math.random() * span);
}
