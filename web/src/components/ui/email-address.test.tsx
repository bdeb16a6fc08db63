// @vitest-environment happy-dom
import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { EmailAddress } from './email-address.tsx';

afterEach(cleanup);

describe('EmailAddress', () => {
  it('offers a line break right after the @, and reads as the whole address', () => {
    const { container } = render(<EmailAddress value="buyermwy99vuo22@example.com" />);
    expect(container.innerHTML).toBe('buyermwy99vuo22@<wbr>example.com');
    expect(container.textContent).toBe('buyermwy99vuo22@example.com');
  });

  it('leaves text without an @ as it is', () => {
    const { container } = render(<EmailAddress value="not an address" />);
    expect(container.innerHTML).toBe('not an address');
  });
});
