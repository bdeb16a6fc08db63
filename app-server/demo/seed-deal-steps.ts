import type { DemoDeals } from './demo-deals.ts';

/**
 * The deal's steps (contract section 7), each left standing on its own escrow so that every screen has an example:
 * terms agreed and declined (before and after payment), a shipment on its way, an inspection running, one the system
 * accepted when its period ended, an accepted deal ready to release, settlement proposals open, agreed and executed, and a conversation on a deal that goes well.
 * The seller-made escrow still waiting for the buyer's agreement is made with the other unpaid ones.
 */
export async function seedDealSteps(
  deals: DemoDeals,
  runInspectionClockAt: (now: Date) => Promise<unknown>,
): Promise<void> {
  // A seller-made escrow the buyer agreed to, then asked for the payment address ("Agree and pay").
  const agreed = await deals.open('farid', 'bruno', 'Refurbished iPhone 13, 128 GB, midnight', 540_00, {
    by: 'seller',
  });
  await deals.agree(agreed, 'bruno');
  await deals.requestPayment(agreed, 'bruno');

  // Declined before any payment: cancelled, the address goes back to the pool.
  const declinedUnpaid = await deals.open('alice', 'farid', 'Bose QuietComfort 45 headphones', 210_00);
  await deals.decline(declinedUnpaid, 'farid', 'Sorry, I sold them locally this morning before I saw the escrow');

  // Declined after the payment was verified: the admins owe the buyer a refund (to the address she gave).
  const declinedPaid = await deals.funded('chiara', 'dmitri', 'Nintendo Switch OLED with two controllers', 330_00);
  await deals.decline(
    declinedPaid,
    'dmitri',
    'The console failed my last check before packing (a dead pixel line); I will not sell it like this',
  );
  await deals.payoutAddress(declinedPaid, 'chiara');

  // Shipped with a carrier and tracking, waiting for the buyer to mark it received; the parties talk it through.
  const shipped = await deals.funded('bruno', 'elena', 'Hand-knotted Persian wool rug, 2 x 3 m', 1650_00);
  await deals.agree(shipped, 'elena');
  await deals.ship(shipped, 'elena', {
    method: 'shipping',
    carrier: 'DHL Parcel',
    tracking: '00340434161094032136',
    note: 'Rolled, wrapped in plastic and cardboard; 18 kg',
  });
  for (const [who, text] of [
    ['bruno', 'Thank you! Does the parcel need a signature? I am out until 6 pm most days.'],
    [
      'elena',
      'Yes, DHL asks for one. You can choose a Packstation or a neighbour in the DHL app with the tracking number.',
    ],
    ['bruno', 'Done, I picked the Packstation on my street. I will mark it received as soon as I have it.'],
  ] as const) {
    await deals.say(shipped, who, text);
  }

  // Received: the buyer's inspection period runs (five days for a camera to test).
  await deals.received(
    'alice',
    'farid',
    'Sony A7 III body with FE 28-70 mm lens',
    1290_00,
    {
      method: 'shipping',
      carrier: 'PostNL',
      tracking: '3SPNLB0123456789',
      note: 'Shutter count 8,412; both batteries included',
    },
    { inspectionDays: 5 },
  );

  // Accepted by the system: a one-day inspection period that ended with neither acceptance nor dispute. The inspection
  // clock runs as it will a day and a minute from now (no other period of the demo ends or nears its end by then).
  await deals.received(
    'bruno',
    'elena',
    'Garmin Fenix 7 Sapphire watch',
    430_00,
    { method: 'shipping', carrier: 'GLS', tracking: 'ZW81NCP4', note: 'Boxed with the charger; screen protector on' },
    { inspectionDays: 1 },
  );
  await runInspectionClockAt(new Date(Date.now() + 24 * 3600_000 + 60_000));

  // Accepted by the buyer and the payout address set: ready to release.
  const accepted = await deals.received('chiara', 'farid', 'Shopify store setup with 40 product pages', 1150_00, {
    method: 'service',
    note: 'The store is live on your domain; admin access handed over on our call',
  });
  await deals.payoutAddress(accepted, 'farid');
  await deals.confirmReceipt(accepted, 'chiara');

  // An open proposal: the buyer asked for a refund, the seller declined, the buyer now proposes a split.
  const haggled = await deals.received('alice', 'dmitri', 'Rancilio Silvia V6 espresso machine', 980_00, {
    method: 'shipping',
    carrier: 'DPD',
    tracking: '05212345678901',
    note: 'Double-boxed, descaled before packing',
  });
  const refund = await deals.propose(haggled, 'alice', {
    kind: 'refund',
    note: 'The steam wand leaks at the joint; I would rather send it back',
  });
  await deals.answer(haggled, refund, 'dmitri', {
    decline: 'It was tested before packing; the joint only needs tightening, which I can walk you through',
  });
  await deals.propose(haggled, 'alice', {
    kind: 'split',
    seller_percent: 85,
    note: 'Tightening did not stop the leak; a new seal kit and a repair cost about 150 USD',
  });

  // A split both parties accepted, both addresses set: ready for an admin to execute.
  const split = await deals.received('bruno', 'dmitri', 'Set of four oak bar stools', 560_00, {
    method: 'shipping',
    carrier: 'DB Schenker',
    tracking: 'SE4410098765',
    note: 'Assembled, blanket-wrapped on a pallet',
  });
  const stools = await deals.propose(split, 'bruno', {
    kind: 'split',
    seller_percent: 75,
    note: 'One stool arrived with a cracked seat; I keep all four and glue it',
  });
  await deals.answer(split, stools, 'dmitri', { accept: true });
  await deals.payoutAddress(split, 'dmitri');
  await deals.payoutAddress(split, 'bruno');

  // A split the seller proposed, the buyer accepted, and an admin executed as agreed.
  const settled = await deals.received('chiara', 'elena', 'Jazz vinyl collection, 120 LPs', 1400_00, {
    method: 'shipping',
    carrier: 'SEUR',
    tracking: 'ES2405119876543',
    note: 'Three boxes, records upright, sleeves in plastic',
  });
  await deals.payoutAddress(settled, 'elena');
  await deals.payoutAddress(settled, 'chiara');
  const vinyl = await deals.propose(settled, 'elena', {
    kind: 'split',
    seller_percent: 90,
    note: 'Eight sleeves got wet in transit; 10% off for those',
  });
  await deals.answer(settled, vinyl, 'chiara', { accept: true });
  await deals.executeSettlement(settled);
}
