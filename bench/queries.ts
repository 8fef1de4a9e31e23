/**
 * Keyword queries of one to three words, of the kind people type into a paper search box.
 * Written for the benchmark (not taken from any corpus).
 */
export const KEYWORD_QUERIES: readonly string[] = [
  'transformer', 'diffusion', 'reinforcement learning', 'graph neural networks', 'large language models',
  'contrastive learning', 'object detection', 'semantic segmentation', 'federated learning', 'domain adaptation',
  'few-shot learning', 'meta learning', 'causal inference', 'bayesian optimization', 'gaussian processes',
  'variational inference', 'normalizing flows', 'neural radiance fields', 'slam', 'visual odometry',
  'motion planning', 'grasping', 'legged locomotion', 'imitation learning', 'offline rl',
  'multi-agent', 'adversarial examples', 'robustness', 'fairness', 'differential privacy',
  'knowledge distillation', 'pruning', 'quantization', 'attention', 'self-supervised',
  'point cloud', '3d reconstruction', 'pose estimation', 'image generation', 'text to image',
  'machine translation', 'question answering', 'summarization', 'dialogue', 'named entity recognition',
  'speech recognition', 'time series forecasting', 'anomaly detection', 'recommender systems', 'clustering',
  'kernel methods', 'online learning', 'bandits', 'convex optimization', 'stochastic gradient descent',
  'learning theory', 'sample complexity', 'deep learning', 'neural network', 'learning',
];

/** Title beginnings as someone types them, for the autocomplete benchmark. */
export const AUTOCOMPLETE_PREFIXES: readonly string[] = [
  'at', 'atten', 'attention is', 'deep re', 'deep residual le', 'graph', 'graph neural net', 'learning to',
  'towards', 'a survey', 'diffusion mod', 'large lang', 'neural radiance', 'segment any', 'on the conv',
  'robust', 'efficient', 'unsupervised domain adap', 'multi-agent reinforcement', 'self-supervised',
  'bert', 'gpt', 'vision trans', 'contrastive', 'zero-shot', 'learning from demonstr', 'model pred', 'slam',
  'a ', 'the ',
];
