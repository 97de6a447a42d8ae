export * from './nbody/index';
export * from './fluid/index';
export * from './dem/index';
export * from './agents/index';
export * from './collide/index';
export * from './subdivide/index';
export * from './ccd/index';
