/**
 * A command's form (`Command.form`: one long text, such as the abstract `/paper like:` takes) as
 * a Discord modal, and the text a submitted modal carries. A slash option is a one-line box that
 * holds 6,000 characters; a modal's text box is a paragraph of up to 4,000, where a pasted
 * abstract can be read and edited. The modal's custom_id is the form's handle (`paper:form`),
 * which the submission brings back. Pure.
 *
 * The text box sits in a Label component (type 18), as Discord's current modals have it (a text
 * input in an action row, with a label of its own, is the deprecated form).
 */
import { ComponentType, type APIModalInteractionResponseCallbackData, type ModalSubmitInteraction } from 'discord.js';
import type { FormSpec } from '../../src/commands/registry.js';
import { ComponentKind, LABEL_MAX, MODAL_TITLE_MAX, TEXT_INPUT_MAX, TEXT_INPUT_PARAGRAPH, TEXT_INPUT_PLACEHOLDER_MAX } from './limits.js';
import { plain } from './markdown.js';

/** The custom_id of the modal's text box. */
export const FORM_TEXT_ID = 'text';

/**
 * @example renderModal({ handle: 'paper:form', title: 'Related work for a text', label: 'Abstract or paragraph', placeholder: 'Paste…' })
 *   // { custom_id: 'paper:form', title: 'Related work for a text', components: [{ type: 18, label: 'Abstract or paragraph', component: { type: 4, … } }] }
 */
export function renderModal(form: FormSpec): APIModalInteractionResponseCallbackData {
  const placeholder = plain(form.placeholder, TEXT_INPUT_PLACEHOLDER_MAX);
  return {
    custom_id: form.handle,
    title: plain(form.title, MODAL_TITLE_MAX) || '…',
    components: [
      {
        type: ComponentKind.Label,
        label: plain(form.label, LABEL_MAX) || '…',
        component: {
          type: ComponentKind.TextInput,
          custom_id: FORM_TEXT_ID,
          style: TEXT_INPUT_PARAGRAPH,
          required: true,
          max_length: TEXT_INPUT_MAX,
          ...(placeholder && { placeholder }),
        },
      },
    ],
  };
}

/**
 * The text typed in a submitted modal's text box, as Discord sent it; undefined when the
 * submission has no text box of ours (discord.js passes the payload's components on as they came).
 */
export function submittedText(interaction: ModalSubmitInteraction): unknown {
  const field: unknown = interaction.fields.fields.get(FORM_TEXT_ID);
  if (field === null || typeof field !== 'object' || !('type' in field) || field.type !== ComponentType.TextInput) return undefined;
  return 'value' in field ? field.value : undefined;
}
