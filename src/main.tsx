import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { crossOriginIsolation } from './isolation.ts';
import { App } from './ui/App.tsx';
import { followPageWorld } from './ui/world.ts';
import './ui/styles.css';
import './ui/episode.css';
import './ui/guide.css';
import './ui/first_screen.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
await crossOriginIsolation();
// The recorded run of the page's world is fetched while React renders the page, so that it is drawn within
// moments of load, and the record of another world when the page switches to it.
followPageWorld();
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
