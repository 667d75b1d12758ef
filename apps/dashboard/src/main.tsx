import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App, preloadFirstPage } from './app';
import './styles.css';

preloadFirstPage();
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
