// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { Stars } from './stars.tsx';

afterEach(cleanup);

const fills = (container: HTMLElement) =>
  [...container.querySelectorAll<HTMLElement>('.star-fill')].map((fill) => fill.style.width);

describe('Stars', () => {
  it('draws a half rating as a half star, and reads it out', () => {
    const { container } = render(<Stars rating={3.5} />);
    expect(screen.getByRole('img', { name: '3.5 out of 5 stars' })).toBeTruthy();
    expect(fills(container)).toEqual(['100%', '100%', '100%', '50%', '0%']);
  });

  it('fills an average between halves in proportion', () => {
    const { container } = render(<Stars rating={4.4} />);
    expect(fills(container).map((w) => Math.round(Number.parseFloat(w)))).toEqual([100, 100, 100, 100, 40]);
  });
});
