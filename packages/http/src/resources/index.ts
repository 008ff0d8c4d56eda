// What every feature's resource shares (list envelopes, timestamps, page parameters, examples),
// on its own entry point (`@support/http/resources`): a feature's resource, which webhook
// payloads use too, loads no route or server code. The resources themselves are the features'.
export * from './common';
export * from './examples';
