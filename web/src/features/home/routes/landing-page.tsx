import { BadgeCheck, Eye, FileCheck2, Handshake, Lock, Scale, ShieldCheck, UserCheck } from 'lucide-react';
import { Navigate } from 'react-router-dom';
import { useAuth } from '../../../auth/auth-context.tsx';
import { usePageMeta } from '../../../components/page-meta.ts';
import { ButtonLink } from '../../../components/ui/button.tsx';
import { Loading } from '../../../components/ui/loading.tsx';

const features = [
  {
    icon: ShieldCheck,
    title: 'Funds held until delivery',
    text: 'The seller is paid only after the buyer confirms they received what they paid for.',
  },
  {
    icon: UserCheck,
    title: 'Checked by a person',
    text: 'An admin checks every payment on the Bitcoin chain by hand before the escrow is marked funded.',
  },
  {
    icon: Scale,
    title: 'Fair disputes',
    text: 'Either side can open a dispute. An admin reviews it and releases, refunds or splits the funds.',
  },
  {
    icon: FileCheck2,
    title: 'A ledger you can verify',
    text: 'Every step is written to a tamper-evident log that an auditor can replay offline.',
  },
];

const steps = [
  {
    title: 'Create the escrow',
    text: 'Agree the price in US dollars and open an escrow with the other party’s e-mail address.',
  },
  {
    title: 'Pay to the escrow address',
    text: 'The buyer sends the exact Bitcoin amount to the address shown, then marks the payment as sent.',
  },
  {
    title: 'Deliver and confirm',
    text: 'Once the payment is verified the seller delivers; the buyer confirms receipt.',
  },
  { title: 'Release', text: 'An admin releases the funds to the seller’s payout address, or settles a dispute.' },
];

const reasons = [
  {
    icon: Lock,
    title: 'Exact money',
    text: 'Dollars in cents and Bitcoin in satoshis: no rounding surprises. The amount to pay is rounded up, never short.',
  },
  {
    icon: Eye,
    title: 'Nothing hidden',
    text: 'A flat fee shown before you commit; every change to your escrow is visible in its history.',
  },
  {
    icon: BadgeCheck,
    title: 'Two-factor protection',
    text: 'Protect your account with an authenticator app; money-moving actions ask for your code.',
  },
  {
    icon: Handshake,
    title: 'People you can reach',
    text: 'Support answers by e-mail, and you can encrypt your message with our published PGP key.',
  },
];

export function LandingPage() {
  const { user, loading } = useAuth();
  usePageMeta(
    'Bitcoin escrow with human verification',
    'Buy and sell with Bitcoin safely: funds are held in escrow until the buyer confirms delivery.',
  );
  if (loading) return <Loading />;
  if (user) return <Navigate to="/dashboard" replace />;
  return (
    <>
      <section className="hero">
        <p className="eyebrow">Bitcoin escrow</p>
        <h1>Bitcoin deals, held until both sides are happy</h1>
        <p className="lead">
          Agree a price in US dollars. The buyer pays Bitcoin to an address we control; a person checks the payment on
          the chain and holds it until the buyer confirms delivery, then releases it to the seller.
        </p>
        <div className="actions">
          <ButtonLink to="/register">Create your free account</ButtonLink>
          <ButtonLink to="/how-it-works" variant="secondary">
            See how it works
          </ButtonLink>
        </div>
      </section>

      <section aria-labelledby="features-title" className="section">
        <h2 id="features-title">Why people trust their deals to us</h2>
        <ul className="grid grid-4">
          {features.map(({ icon: Icon, title, text }) => (
            <li key={title} className="card feature">
              <Icon className="feature-icon" aria-hidden="true" />
              <h3>{title}</h3>
              <p>{text}</p>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="steps-title" className="section">
        <h2 id="steps-title">How it works</h2>
        <ol className="steps grid grid-4">
          {steps.map(({ title, text }) => (
            <li key={title} className="card step">
              <h3>{title}</h3>
              <p>{text}</p>
            </li>
          ))}
        </ol>
      </section>

      <section aria-labelledby="why-title" className="section">
        <h2 id="why-title">Why us</h2>
        <ul className="grid grid-2">
          {reasons.map(({ icon: Icon, title, text }) => (
            <li key={title} className="reason">
              <Icon className="feature-icon" aria-hidden="true" />
              <div>
                <h3>{title}</h3>
                <p>{text}</p>
              </div>
            </li>
          ))}
        </ul>
      </section>

      <section className="card cta">
        <h2>Ready for a safer deal?</h2>
        <p>Open an account in a minute. You only pay the fee when an escrow is created.</p>
        <ButtonLink to="/register">Get started</ButtonLink>
      </section>
    </>
  );
}
