import '@fontsource-variable/inter';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { adoptCspNonce } from './app/csp-nonce.ts';
import { AppRouter } from './app/router.tsx';
import { AuthProvider } from './auth/auth-context.tsx';
import { retryDelay, retryTransient } from './lib/query-retry.ts';
import './styles.css';

adoptCspNonce();

// A failing page says so within about a second: only an outage is asked again (lib/query-retry.ts).
const queryClient = new QueryClient({
  defaultOptions: { queries: { staleTime: 15_000, refetchOnWindowFocus: false, retry: retryTransient, retryDelay } },
});

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <AuthProvider>
        <AppRouter />
      </AuthProvider>
    </QueryClientProvider>
  </StrictMode>,
);
