/**
 * The order in which the fleet-scale bench's Checkmk-like poller visits the PBXs (issue 31 §4).
 *
 * A monitoring server checks every host once per check interval, each at its own offset in the
 * interval (Checkmk and Nagios spread the first checks over the interval and keep each host's
 * offset from then on); which hosts come one after another follows nothing about where they run.
 * Walking the PBXs in address order instead put every fetch of the moment on the one shard
 * process holding that address range, 1,667 fetches a second at 100,000 PBXs, while the other
 * shards idled. This order is a fixed shuffle of the PBXs: each still fetched exactly once per
 * interval, at the same rate, but consecutive fetches land on shards as the fleet's layout has
 * them, in proportion to their PBXs.
 */
export function spreadPollOrder(count: number, seed = 0x5eed_31): Uint32Array {
  if (!Number.isSafeInteger(count) || count < 0) throw new RangeError(`a PBX count, not ${count}`);
  const order = new Uint32Array(count);
  for (let i = 0; i < count; i++) order[i] = i;
  // Fisher–Yates with mulberry32: the same seed gives the same order on every run.
  let state = seed >>> 0;
  const random = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  for (let i = count - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    const swap = order[i]!;
    order[i] = order[j]!;
    order[j] = swap;
  }
  return order;
}
