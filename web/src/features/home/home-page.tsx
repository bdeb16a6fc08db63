import { useEffect } from 'react';
import { type ServiceStatus, useServiceStatus } from './use-service-status.ts';

const statusText: Record<ServiceStatus, string> = {
  checking: 'Checking the service…',
  ready: 'Service is up',
  unavailable: 'Service is unavailable right now',
};

export function HomePage() {
  const status = useServiceStatus();
  useEffect(() => {
    document.title = 'Escrow — Bitcoin deals held safely';
  }, []);
  return (
    <section className="hero">
      <h1>Bitcoin deals, held until both sides are happy</h1>
      <p className="lead">
        Agree a price in US dollars. The buyer pays Bitcoin to an address we control; a person checks the
        payment on the chain, holds it until the buyer confirms delivery, then releases it to the seller — or
        refunds or splits it after a dispute.
      </p>
      <p className={`status status-${status}`} role="status">
        <span className="status-dot" aria-hidden="true" />
        {statusText[status]}
      </p>
    </section>
  );
}
