export * from './signing';
export * from './url-guard';
export * from './sender';
export * from './schedule';
export * from './mailer';
