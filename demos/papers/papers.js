// The papers the gallery reproduces: citation, link, the page of each in demos/papers/, and
// passages quoted on the demo pages (verbatim from the papers).
export const PAPERS = {
  horn: {
    title: 'Stream Reduction Operations for GPGPU Applications',
    authors: 'Daniel Horn',
    cite: 'Daniel Horn, “Stream Reduction Operations for GPGPU Applications”, GPU Gems 2, chapter 36 (2005)',
    href: 'https://developer.nvidia.com/gpugems/gpugems2/part-iv-general-purpose-computation-gpus-primer/chapter-36-stream-reduction-operations',
    page: '../papers/horn-36/',
    quotes: {
      filter:
        'Instead, we present a technique here that uses a scan (Hillis and Steele 1986) to obtain a running count of the number of null records, and then a search and gather to compact them, for a final running time of O(n log n).',
    },
  },
  nyland: {
    title: 'Fast N-Body Simulation with CUDA',
    authors: 'Lars Nyland, Mark Harris, Jan Prins',
    cite: 'Lars Nyland, Mark Harris, Jan Prins, “Fast N-Body Simulation with CUDA”, GPU Gems 3, chapter 31 (2007)',
    href: 'https://developer.nvidia.com/gpugems/gpugems3/part-v-physics-simulation/chapter-31-fast-n-body-simulation-cuda',
    page: '../papers/nyland-31/',
    quotes: {
      nbody:
        'In 2004 we built an N-body application for GPUs by using Cg and OpenGL (Nyland, Harris, and Prins 2004). […] we performed simple brute-force computation of all pair-wise accelerations into a single large texture, followed by a parallel sum reduction to get the vector of total accelerations.',
    },
  },
  harris: {
    title: 'GPU Flow-Control Idioms',
    authors: 'Mark Harris, Ian Buck',
    cite: 'Mark Harris, Ian Buck, “GPU Flow-Control Idioms”, GPU Gems 2, chapter 34 (2005)',
    href: 'https://developer.nvidia.com/gpugems/gpugems2/part-iv-general-purpose-computation-gpus-primer/chapter-34-gpu-flow-control-idioms',
    page: '../papers/harris-buck-34/',
    quotes: {
      fluid:
        'In the example, the obstacles change only when the user "paints" them. Therefore, we can precompute the offset direction and store it in an offset texture to be reused until the user changes the obstacles again.',
      fractal:
        'Suppose we have a computation that needs to proceed iteratively on elements of a stream until all elements satisfy a termination criterion. To implement this on the GPU, we write a fragment program that implements the computation and one that tests the termination criterion. The latter program discards fragments that satisfy the termination criterion.',
    },
  },
  oat: {
    title: 'Efficient Spatial Binning on the GPU',
    authors: 'Christopher Oat, Joshua Barczak, Jeremy Shopf',
    cite: 'Christopher Oat, Joshua Barczak, Jeremy Shopf, “Efficient Spatial Binning on the GPU”, AMD Technical Report (February 2009)',
    href: 'https://scholar.google.com/scholar?q=%22Efficient+Spatial+Binning+on+the+GPU%22+Oat+Barczak+Shopf',
    page: '../papers/oat-2009/',
    quotes: {
      dem:
        'Setting the grid cell size to be approximately the diameter of a particle allows us to limit our search to immediate neighbors while effectively limiting the maximum load on any particular bin. Particle-to-particle collisions are modeled using the spring and damping forces given by Equations 3 and 4 respectively [Harada et al. 2007a].',
      agents:
        'Each agent evaluates a number of fixed directions relative to the direction in which it wishes to move. Each direction is evaluated to determine the time to collision with nearby agents (Figure 3). Each direction is given a fitness function based on the angle relative to the desired direction and the time to collision.',
    },
  },
  dasilva: {
    title: 'Lazy Work Stealing for Continuous Hierarchy Traversal on Deformable Bodies',
    authors: 'Vinícius da Silva, Claudio Esperança, Ricardo Guerra Marroquim',
    cite: 'Vinícius da Silva, Claudio Esperança, Ricardo Guerra Marroquim, “Lazy Work Stealing for Continuous Hierarchy Traversal on Deformable Bodies”, GRAPP 2014',
    href: 'https://scholar.google.com/scholar?q=%22Lazy+Work+Stealing+for+Continuous+Hierarchy+Traversal+on+Deformable+Bodies%22',
    page: '../papers/dasilva-2014/',
    quotes: {
      ccd:
        'A lazy approach is used to acquire stolen nodes (pop level 3). Since a block has a reasonable number of threads running in parallel, the stealing part of the algorithm pops all deques at the same time, each thread changing the top pointer of one global deque. However, just the nodes from the first stolen deque are actually transferred to the block stack at this time.',
    },
  },
};
