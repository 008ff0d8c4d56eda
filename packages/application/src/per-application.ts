import type { Application } from './application';

/**
 * What a feature builds over an application's ports (its commands, its read model), made once
 * per application: a process serves one, a test may make many.
 */
export const perApplication = <T>(make: (app: Application) => T): ((app: Application) => T) => {
  const built = new WeakMap<Application, T>();
  return (app) => {
    let value = built.get(app);
    if (value === undefined) {
      value = make(app);
      built.set(app, value);
    }
    return value;
  };
};
