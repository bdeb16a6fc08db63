/** The id part of a stream id: `escrow:6f1c…` → `6f1c…`. */
export const idOfStream = (streamId: string) => streamId.slice(streamId.indexOf(':') + 1);
