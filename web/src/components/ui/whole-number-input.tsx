import type { ComponentProps } from 'react';

type InputProps = Omit<ComponentProps<'input'>, 'type' | 'inputMode' | 'min' | 'max' | 'step'>;

/** A whole number from min to max: a phone shows the numeric keypad, the arrows step by one. */
export function WholeNumberInput({ min, max, ...input }: InputProps & { min: number; max: number }) {
  return <input type="number" inputMode="numeric" min={min} max={max} step="1" {...input} />;
}
