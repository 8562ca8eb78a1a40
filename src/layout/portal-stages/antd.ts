/**
 * The portal shell's first stage: importing this evaluates the shell's antd chunk (`portal-antd`, vite.config.ts)
 * in a task of its own. Its import also starts the download of every chunk the shell needs (vite.config.ts
 * `resolveDependencies`), so the later stages find their code already fetched. See src/main.tsx `loadPortalApp`.
 */
export { ConfigProvider } from 'antd';
