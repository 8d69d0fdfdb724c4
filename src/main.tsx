import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { crossOriginIsolation } from './isolation.ts';
import { App } from './ui/App.tsx';
import './ui/styles.css';
import './ui/episode.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
await crossOriginIsolation();
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
