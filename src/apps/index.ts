export * from './nbody/index';
