// Vite bundles imported stylesheets; they export nothing the code uses.
declare module '*.css';
