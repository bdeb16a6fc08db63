// @vitest-environment happy-dom
import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useCursorPages } from './use-cursor-pages.ts';

describe('useCursorPages', () => {
  it('goes on from the last cursor shown, back to a page seen before, and to the start again', () => {
    const { result } = renderHook(() => useCursorPages<number | null>(null));
    expect(result.current).toMatchObject({ page: 0, cursor: null });
    act(() => result.current.pageTo(1, () => 50));
    act(() => result.current.pageTo(2, () => 100));
    expect(result.current).toMatchObject({ page: 2, cursor: 100 });
    act(() => result.current.pageTo(1, () => 999));
    expect(result.current).toMatchObject({ page: 1, cursor: 50 });
    act(() => result.current.reset());
    expect(result.current).toMatchObject({ page: 0, cursor: null });
  });
});
