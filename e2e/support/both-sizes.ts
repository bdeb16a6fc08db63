/**
 * A screen held to the product's bar at a laptop's 1366x768 and a phone's 390x844, with a picture of each: axe,
 * nothing wider than the screen (the page, or an open dialog), then back to the laptop's size.
 */
import type { Page } from '@playwright/test';
import { shoot } from './admin-data.ts';
import { checkPage, expect } from './fixtures.ts';

export const LAPTOP = { width: 1366, height: 768 };
export const PHONE = { width: 390, height: 844 };

/** `shotName` names the screenshots (the width is added); the checks' messages name the screen by it too. */
export async function checkAtBothSizes(page: Page, shotName: string): Promise<void> {
  for (const size of [LAPTOP, PHONE]) {
    await page.setViewportSize(size);
    await checkPage(page, `${shotName} at ${size.width}px`);
    const overflowing = await page.evaluate(() => {
      const wider = (el: Element) => el.scrollWidth > el.clientWidth + 1;
      const dialog = document.querySelector('[role="dialog"]');
      return wider(document.documentElement) || (dialog !== null && wider(dialog));
    });
    expect(overflowing, `${shotName} at ${size.width}px is wider than the screen`).toBe(false);
    await shoot(page, shotName);
  }
  await page.setViewportSize(LAPTOP);
}
