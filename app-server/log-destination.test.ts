import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { type StdoutLike, stdoutDestination } from './log-destination.ts';

/** A pipe whose reader takes nothing: every write stays pending. */
class StalledPipe extends EventEmitter implements StdoutLike {
  written: string[] = [];
  get writableLength(): number {
    return this.written.reduce((sum, line) => sum + line.length, 0);
  }
  write(chunk: string): boolean {
    this.written.push(chunk);
    return false;
  }
}
const stalledPipe = () => new StalledPipe();

describe('stdoutDestination', () => {
  it('drops lines (and counts them) while the reader lags more than the bound behind', () => {
    const pipe = stalledPipe();
    const destination = stdoutDestination(pipe, 100);
    for (let i = 0; i < 10; i++) destination.write(`${'x'.repeat(39)}\n`);
    expect(pipe.written).toHaveLength(3); // 0, 40, 80 bytes pending when written; then 120 > 100
    expect(destination.dropped).toBe(7);
  });

  it('stops writing once the pipe breaks, and the error does not reach the process', () => {
    const pipe = stalledPipe();
    const destination = stdoutDestination(pipe);
    destination.write('before\n');
    pipe.emit('error', Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
    destination.write('after\n');
    expect(pipe.written).toEqual(['before\n']);
    expect(destination.dropped).toBe(1);
  });

  it('treats a write that throws as a broken pipe', () => {
    const pipe = stalledPipe();
    pipe.write = () => {
      throw new Error('EBADF');
    };
    const destination = stdoutDestination(pipe);
    expect(() => destination.write('line\n')).not.toThrow();
    expect(destination.dropped).toBe(1);
  });
});
