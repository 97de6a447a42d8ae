export * from './nbody/index';
export * from './fluid/index';
