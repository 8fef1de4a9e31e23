/**
 * Realistic papers for the export tests, as the store holds them (built through the record
 * schema, so LaTeX is decoded and statuses are canonical, as in production).
 */
import { PaperRecordSchema, type Paper, type PaperRecordInput } from '../../../src/papers/model.js';

/** A paper as the store would hold it. */
export function paper(id: string, record: PaperRecordInput): Paper {
  return { ...PaperRecordSchema.parse(record), id, topics: [], firstSeen: '2026-01-05T08:00:00.000Z' };
}

/** A paper built without the schema: for hostile text the schema would not let through as is. */
export function rawPaper(fields: Partial<Paper> & Pick<Paper, 'id' | 'title' | 'authors'>): Paper {
  return {
    abstract: '',
    venue: '',
    year: null,
    status: '',
    keywords: [],
    labels: [],
    links: {},
    externalIds: {},
    topics: [],
    firstSeen: '2026-01-05T08:00:00.000Z',
    ...fields,
  };
}

export const conferenceOral = paper('arxiv:1706.03762', {
  title: 'Attention Is All You Need',
  authors: ['Ashish Vaswani', 'Noam Shazeer', 'Niki Parmar', 'Jakob Uszkoreit', 'Llion Jones', 'Aidan N. Gomez', 'Łukasz Kaiser', 'Illia Polosukhin'],
  abstract: 'The dominant sequence transduction models are based on complex recurrent or convolutional neural networks.\nWe propose a new simple network architecture, the Transformer.',
  venue: 'NeurIPS',
  year: 2017,
  status: 'Accept (Oral)',
  keywords: ['attention', 'machine translation'],
  labels: ['cs.CL', 'cs.LG'],
  links: { page: 'https://arxiv.org/abs/1706.03762', pdf: 'https://arxiv.org/pdf/1706.03762' },
  externalIds: { arxiv: '1706.03762' },
});

export const arxivPreprint = paper('arxiv:2401.04088', {
  title: 'Mixtral of Experts',
  authors: ['Albert Q. Jiang', 'Alexandre Sablayrolles', 'Antoine Roux', 'Arthur Mensch'],
  abstract: 'We introduce Mixtral 8x7B, a Sparse Mixture of Experts (SMoE) language model.',
  venue: 'arXiv',
  year: 2024,
  published: '2024-01-08',
  labels: ['cs.LG', 'cs.CL'],
  links: { page: 'https://arxiv.org/abs/2401.04088', pdf: 'https://arxiv.org/pdf/2401.04088' },
  externalIds: { arxiv: '2401.04088' },
});

export const journalArticle = paper('doi:10.1038/nature14539', {
  title: 'Deep learning',
  authors: ['Yann LeCun', 'Yoshua Bengio', 'Geoffrey Hinton'],
  abstract: 'Deep learning allows computational models that are composed of multiple processing layers to learn representations of data.',
  venue: 'Nature',
  year: 2015,
  links: { page: 'https://doi.org/10.1038/nature14539' },
  externalIds: { doi: '10.1038/nature14539' },
});

export const tmlrArticle = paper('openreview:yzkSU5zdwD', {
  title: 'Emergent Abilities of Large Language Models',
  authors: ['Jason Wei', 'Yi Tay', 'Rishi Bommasani'],
  venue: 'TMLR',
  year: 2022,
  status: 'Accepted',
  links: { page: 'https://openreview.net/forum?id=yzkSU5zdwD' },
  externalIds: { openreview: 'yzkSU5zdwD', arxiv: '2206.07682' },
  labels: ['cs.CL'],
});

export const withdrawnSubmission = paper('openreview:B11bwYgfM', {
  title: 'Sparse Attention Without Tears',
  authors: ['Ana Ruiz', 'Tomás Ortega'],
  abstract: 'We study sparse attention.',
  venue: 'ICLR',
  year: 2024,
  status: 'Withdraw',
  keywords: ['sparse attention'],
  labels: ['representation learning'],
  links: { page: 'https://openreview.net/forum?id=B11bwYgfM' },
  externalIds: { openreview: 'B11bwYgfM' },
});

export const chineseAuthors = paper('doi:10.1109/cvpr.2016.90', {
  title: 'Deep Residual Learning for Image Recognition',
  authors: ['Kaiming He', 'Xiangyu Zhang', 'Shaoqing Ren', 'Jian Sun', '孙剑'],
  venue: 'CVPR',
  year: 2016,
  status: 'Oral',
  externalIds: { doi: '10.1109/CVPR.2016.90', arxiv: '1512.03385' },
  labels: ['cs.CV'],
});

export const diacritics = paper('colt2019:17', {
  title: 'Kernel Methods Beyond Gröbner Bases',
  authors: ['Bernhard Schölkopf', 'Csaba Szepesvári', 'Jiří Matas', 'Søren Hauberg', 'Guido van Rossum'],
  venue: 'COLT',
  year: 2019,
  status: 'Poster',
  sourceKey: 'colt2019:17',
});

export const mathTitle = paper('arxiv:2302.00001', {
  title: 'Regret Bounds of O(√T) for ℓ₁-Regularized Online Learning',
  authors: ['Zoë Müller-Lüdenscheidt', 'DeepMind Team'],
  abstract: 'We prove an $O(\\sqrt{T})$ bound for $\\ell_1$ regularization, 100% & more.',
  venue: 'arXiv',
  year: 2023,
  published: '2023-02-01',
  labels: ['stat.ML'],
  externalIds: { arxiv: '2302.00001' },
});

/** All of the above, in a fixed order. */
export const REALISTIC: readonly Paper[] = [
  conferenceOral,
  arxivPreprint,
  journalArticle,
  tmlrArticle,
  withdrawnSubmission,
  chineseAuthors,
  diacritics,
  mathTitle,
];
