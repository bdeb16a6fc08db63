import { invalidInput } from '../shared/errors.ts';
import type { TransparencyEvent } from './events.ts';

export interface LogKeyState {
  /** The key that signs checkpoints now; null before the first. */
  vkey: string | null;
  /** Every key the log has named, oldest first: a checkpoint of any time verifies with one of them. */
  keys: string[];
}

export const initialLogKeyState = (): LogKeyState => ({ vkey: null, keys: [] });

export function evolveLogKey(state: LogKeyState, event: TransparencyEvent): LogKeyState {
  return { vkey: event.data.vkey, keys: [...state.keys, event.data.vkey] };
}

export type LogKeyCommand =
  /** At start: the key in use is named by the log when the log names none yet (a different key is rotated to only by `rotate`). */
  | { type: 'introduce'; origin: string; vkey: string }
  /** An operator's rotation: a different key from now on. */
  | { type: 'rotate'; origin: string; vkey: string };

export function decideLogKey(command: LogKeyCommand, state: LogKeyState): TransparencyEvent[] {
  if (command.type === 'introduce') {
    return state.vkey === null
      ? [{ type: 'LogKeyIntroduced', data: { origin: command.origin, vkey: command.vkey } }]
      : [];
  }
  if (state.vkey === command.vkey) throw invalidInput('the new log key is the key in use');
  if (state.vkey === null) return [{ type: 'LogKeyIntroduced', data: { origin: command.origin, vkey: command.vkey } }];
  return [{ type: 'LogKeyRotated', data: { origin: command.origin, vkey: command.vkey, previous_vkey: state.vkey } }];
}
