/**
 * A command's form as a Discord modal (adapters/discord/modal.ts) and the button that opens it:
 * exact JSON, and Discord's limits kept whatever the catalog's words.
 */
import { describe, expect, it } from 'vitest';
import { renderComponents } from '../../../adapters/discord/components.js';
import { renderModal } from '../../../adapters/discord/modal.js';
import { modalProblems } from './discordRules.js';

describe('renderModal', () => {
  it('is one paragraph text box in a label, as long as Discord takes', () => {
    expect(renderModal({ handle: 'paper:form', title: 'Related work for a text', label: 'Abstract or paragraph', placeholder: 'Paste an abstract' })).toEqual({
      custom_id: 'paper:form',
      title: 'Related work for a text',
      components: [{ type: 18, label: 'Abstract or paragraph', component: { type: 4, custom_id: 'text', style: 2, required: true, max_length: 4000, placeholder: 'Paste an abstract' } }],
    });
  });

  it('keeps Discord’s limits with words too long, and shows mentions as text', () => {
    const modal = renderModal({ handle: 'paper:form', title: `@everyone ${'t'.repeat(200)}`, label: 'l'.repeat(200), placeholder: `<@123>\n${'p'.repeat(500)}` });
    expect(modalProblems(modal)).toEqual([]);
    expect(modal.title).toMatch(/^@\u200beveryone t+…$/);
    const box = modal.components[0] as unknown as { component: { placeholder: string } };
    expect(box.component.placeholder).toMatch(/^<\u200b@123> p+…$/);
    expect(modalProblems(renderModal({ handle: 'paper:form', title: '', label: '', placeholder: '' }))).toEqual([]);
  });
});

describe('a form’s button', () => {
  it('carries the form’s handle, beside the reply’s other buttons', () => {
    const rows = renderComponents({ fallback: '', blocks: [], buttons: [[{ label: 'Next ▶', action: 'paper:page:k3f9x2:1' }, { label: 'Paste a text…', form: 'paper' }]] });
    expect(rows).toEqual([
      {
        type: 1,
        components: [
          { type: 2, style: 2, label: 'Next ▶', custom_id: 'paper:page:k3f9x2:1' },
          { type: 2, style: 2, label: 'Paste a text…', custom_id: 'paper:form' },
        ],
      },
    ]);
  });
});
