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

/**
 * Untimed passes over the prefixes before the timed ones. V8 optimizes the autocomplete path
 * over its first several hundred calls, on a compiler thread that competes with the timed calls
 * for the two cores: with a single pass first, `--trace-opt` showed `suggest`, the scorer's block
 * walk and the query planner still being compiled and deoptimized (30–80 ms of CPU each) while
 * the calls were timed, and those calls took two to four times their steady time. Ten passes
 * were not always enough under tsx; thirty were (about a third of a second at 1M). A bot answers
 * autocomplete all day: what it serves is the compiled path.
 */
const AUTOCOMPLETE_WARMUP_PASSES = 30;

/** Times `passes` passes of autocomplete over {@link AUTOCOMPLETE_PREFIXES} after the warm-up; milliseconds a call. */
export function timeAutocomplete(suggest: (prefix: string) => unknown, passes: number): number[] {
  for (let pass = 0; pass < AUTOCOMPLETE_WARMUP_PASSES; pass++) for (const p of AUTOCOMPLETE_PREFIXES) suggest(p);
  const ms: number[] = [];
  for (let pass = 0; pass < passes; pass++) {
    for (const p of AUTOCOMPLETE_PREFIXES) {
      const t = performance.now();
      suggest(p);
      ms.push(performance.now() - t);
    }
  }
  return ms;
}

/**
 * Descriptions of what a paper does, as a researcher who forgot its title types them (issue 40):
 * six to fifteen words, none a title's. Written for the benchmark (not taken from any corpus or
 * eval set); they time the meaning stage, they are not scored.
 */
export const DESCRIPTION_QUERIES: readonly string[] = [
  'training a small network to mimic the soft outputs of a large ensemble',
  'randomly zeroing hidden units during training so they do not co-adapt',
  'normalizing layer inputs over the mini-batch to speed up training of deep nets',
  'skip connections that let very deep convolutional networks learn residual functions',
  'a generator and a discriminator trained against each other in a minimax game',
  'learning word vectors by predicting surrounding words in a large text corpus',
  'agent learns to play arcade games from raw pixels with a replay buffer',
  'pretraining a bidirectional encoder by predicting masked tokens in sentences',
  'adding small crafted perturbations to images that fool a classifier',
  'gradually removing noise from a random sample to generate realistic images',
  'pruning weights of a trained network and retraining the small subnetwork from its original initialization',
  'representing a scene as a continuous function queried along camera rays for novel views',
  'clients train locally and only share model updates with a central server to protect privacy',
  'proposal regions from a shared convolutional feature map for fast object detection',
  'encoder decoder with skip connections for segmenting biomedical microscopy images',
  'updating a policy with a clipped surrogate objective for stable on-policy training',
  'graph convolution that aggregates features from each node neighbourhood for semi-supervised labels',
  'learning visual representations by pulling together augmented views of the same image',
  'language model that answers new tasks from a few examples placed in its prompt',
  'low rank updates to frozen weights to fine-tune large language models cheaply',
  'estimating a robot pose and a map of its surroundings at the same time from a camera',
  'predicting grasp success for a parallel gripper from depth images',
  'learning a reward function from expert demonstrations then optimizing a policy for it',
  'calibrated uncertainty from averaging the predictions of several independently trained networks',
  'attention between every pair of positions replacing recurrence for translation',
  'searching network architectures automatically with a controller trained by reinforcement',
  '用大模型的软标签训练一个小网络',
  '从人类演示视频中学习机器人抓取',
  '在图像上添加微小扰动欺骗分类器',
  '用扩散过程逐步去噪生成图像',
];
