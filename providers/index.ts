/** The front end's providers: pass these to <Refine>; call bootstrapSession() once at startup. */
export * from './session';
export * from './auth-store';
export * from './http-error';
export * from './http-client';
export * from './data-provider';
export * from './auth-provider';
export * from './access-control-provider';
export * from './notification-provider';
export * from './i18n-provider';
