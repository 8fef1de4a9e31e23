/**
 * Case protection in BibTeX titles: which words are braced so that a style's lowercasing keeps
 * their capitals (Better BibTeX's rules, with names in Title Case titles found in the abstract),
 * read back as Zotero imports a .bib (sentence-cased, braces honoured).
 */
import { parse } from '@retorquere/bibtex-parser';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bibtexTitle, toBibtex } from '../../../src/papers/export/bibtex.js';
import { namesIn } from '../../../src/papers/export/caseProtection.js';
import { hostileText } from './hostile.js';
import { rawPaper } from './papers.js';

describe('bibtexTitle protects the capitals a style must keep', () => {
  it.each([
    // Capitals after a word's first letter: acronyms, brands, camel case, plurals of acronyms.
    ['BERT: Pre-training of Deep Bidirectional Transformers', '', '{BERT}: Pre-training of Deep Bidirectional Transformers'],
    ['Improved Training of GANs with ResNet on the iPhone', '', 'Improved Training of {GANs} with {ResNet} on the {iPhone}'],
    // A compound with an acronym or a lone capital is a name whole; other compounds part by part.
    ['GPT-4 Technical Report', '', '{GPT-4} Technical Report'],
    ['HoD-Net and U-Net for Q-Learning', '', '{HoD-Net} and {U-Net} for {Q-Learning}'],
    ['BERT-Based Ranking of Non-Gaussian Self-Supervised Features', '', '{BERT-Based} Ranking of Non-{Gaussian} Self-Supervised Features'],
    ['Regret Bounds of O(√T) for ℓ₁-Regularized Online Learning', '', 'Regret Bounds of {O(√T)} for ℓ₁-Regularized Online Learning'],
    // Title Case: the known names, anywhere but first; the other capitals are left to the style.
    ['Scalable Variational Gaussian Process Classification', '', 'Scalable Variational {Gaussian} Process Classification'],
    ['Gaussian Processes for Machine Learning', '', 'Gaussian Processes for Machine Learning'],
    ["A Survey of Newton's Methods for Chinese NER", '', "A Survey of {Newton's} Methods for {Chinese} {NER}"],
    ['Deep Learning: Bayesian Methods Revisited', '', 'Deep Learning: {Bayesian} Methods Revisited'],
    // Title Case: names the abstract writes twice or more in mid-sentence, between lowercase words.
    ['Learning Kuramoto Oscillators', 'We couple Kuramoto oscillators. Each pair of Kuramoto models is tied.', 'Learning {Kuramoto} Oscillators'],
    ['Koopman Operators Meet Siamese Networks', '', 'Koopman Operators Meet {Siamese} Networks'],
    // …not once, not in a Title Case phrase, not as a prefix, not a word also in lowercase, not a sentence start.
    ['Learning Kuramoto Oscillators', 'We couple Kuramoto oscillators.', 'Learning Kuramoto Oscillators'],
    ['Deep Convolutional Neural Networks', 'We train Convolutional Neural Networks (CNNs) and Convolutional Neural Networks.', 'Deep Convolutional Neural Networks'],
    ['Scalable Multi Task Learning', 'We train a Multi-task model with a Multi-task loss.', 'Scalable Multi Task Learning'],
    ['Robust Hough Voting', 'We use a robust Hough transform and a fast Hough vote; hough is a typo here.', 'Robust Hough Voting'],
    ['Sparse Attention Beats Dense Attention', 'Attention is costly. Sparse attention is not.', 'Sparse Attention Beats Dense Attention'],
    // Sentence case: every capitalised word but the first of the title or of a part after a colon.
    ['On the convergence of Adam and beyond', '', 'On the convergence of {Adam} and beyond'],
    ['Deep learning on graphs: A survey of methods from Google', '', 'Deep learning on graphs: A survey of methods from {Google}'],
    ['A survey of Transformers for Chinese NLP: methods and results', '', 'A survey of {Transformers} for {Chinese} {NLP}: methods and results'],
    // A title in capitals throughout says nothing about its words.
    ['A STRUCTURED SELF-ATTENTIVE SENTENCE EMBEDDING', '', 'A STRUCTURED SELF-ATTENTIVE SENTENCE EMBEDDING'],
    ['BERT GPT', '', '{BERT} {GPT}'],
    // The title's own braces are kept, never braced again, nothing added inside them.
    ['{PF}²ES: Parallel Feasible Pareto Frontier Entropy Search', '', '{PF}{²ES}: Parallel Feasible {Pareto} Frontier Entropy Search'],
    ['{BERT} and {B}ayesian {Deep Learning}', '', '{BERT} and {B}ayesian {Deep Learning}'],
    ['An Open-{Software, Hardware} Robot', '', 'An Open-{Software, Hardware} Robot'],
    ['Unbalanced } braces { stay text', '', 'Unbalanced \\textbraceright{} braces \\textbraceleft{} stay text'],
    // Math the decoder left is one piece, protected whole; a lone dollar is text.
    ['Regret of Only $\\sqrtT$ in One Dimension', '', 'Regret of Only {{\\$\\textbackslash{}sqrtT\\$}} in One Dimension'],
    ['A Robot Hand That Costs $150', '', 'A Robot Hand That Costs \\$150'],
    // Unicode: accented capitals as accent commands, braced so BibTeX does not read them as one letter.
    ['Émile and ÉA', '', "{\\'E}mile and {{\\'E}A}"],
    ['Solving the Schrödinger Equation with ΔNets', '', 'Solving the {Schr{\\"o}dinger} Equation with {ΔNets}'],
    ['(BERT) meets [GPT-4]', '', '({BERT}) meets [{GPT-4}]'],
  ])('%j', (title, abstract, written) => {
    expect(bibtexTitle(title, abstract)).toBe(written);
  });

  it('finds names in an abstract as written twice in mid-sentence, and nowhere in lowercase', () => {
    const abstract =
      'We place a Gaussian prior and a Gaussian likelihood. Learning is fast, learning is cheap. The Hilbert space is used; ' +
      'a Neural Network (NN) too, non-Markov chains and Markov models, a Multi-task model, a Multi-task loss.';
    const candidates = new Set(['Gaussian', 'Learning', 'Hilbert', 'Neural', 'Markov', 'Prior', 'Multi']);
    expect(namesIn(abstract, candidates)).toEqual(new Set(['Gaussian', 'Markov']));
  });

  it('reads back through Zotero\'s importer in sentence case with the names and acronyms kept', () => {
    const papers = [
      rawPaper({ id: 'a', title: 'Scalable Variational Gaussian Process Classification', authors: [] }),
      rawPaper({ id: 'b', title: 'BERT: Pre-training of Deep Bidirectional Transformers for Language Understanding', authors: [] }),
      rawPaper({ id: 'c', title: 'Marked Hawkes Processes for Social Media', abstract: 'We model retweets with a marked Hawkes process.', authors: [] }),
      rawPaper({ id: 'd', title: 'Bandit Convex Optimization: $\\sqrtT$ Regret in One Dimension', authors: [] }),
    ];
    const library = parse(toBibtex(papers));
    expect(library.errors).toEqual([]);
    expect(library.entries.map((entry) => entry.fields.title)).toEqual([
      'Scalable variational Gaussian process classification',
      'BERT: Pre-training of deep bidirectional transformers for language understanding',
      'Marked Hawkes processes for social media',
      'Bandit convex optimization: $\\sqrtT$ regret in one dimension',
    ]);
  });

  it('brackets every protected word exactly once, whatever the title holds', () => {
    fc.assert(
      fc.property(hostileText, hostileText, (title, abstract) => {
        const written = bibtexTitle(title, abstract);
        let depth = 0;
        for (let i = 0; i < written.length; i++) {
          if (written[i] === '\\') i++;
          else if (written[i] === '{') depth++;
          else if (written[i] === '}') expect(--depth).toBeGreaterThanOrEqual(0);
        }
        expect(depth).toBe(0);
        // Without braces in the title, a doubled brace only ever opens a command (`{{\$…`, `{{\'E}A}`).
        if (!/[{}]/.test(title)) expect(written).not.toMatch(/\{\{(?!\\)/);
      }),
      { numRuns: 500 },
    );
  });

  it('takes linear time over words that are mostly punctuation', () => {
    // A backtracking pattern takes seconds over one such word of 20,000 characters and minutes
    // over 100,000; a scan, milliseconds. The bound leaves room for a loaded machine.
    const word = (length: number) => `a${'!'.repeat(length - 2)}b`;
    const title = `Learning With ${word(100_000)} Gaussians`;
    const abstract = `${word(19_000)} Gaussians ${word(19_000)}`;
    const started = performance.now();
    expect(bibtexTitle(title, abstract)).toContain('{Gaussians}');
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});
