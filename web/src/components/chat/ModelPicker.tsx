// The model a message goes to: any name the server's providers serve, with the default and the
// models of recent dialogs offered as choices.
import { useId } from "react";

interface Props {
  value: string;
  choices: readonly string[];
  onChange: (model: string) => void;
}

export function ModelPicker({ value, choices, onChange }: Props) {
  const listId = useId();
  return (
    <label className="model-picker">
      Model{" "}
      <input
        value={value}
        onChange={(event) => onChange(event.target.value)}
        list={listId}
        size={18}
        aria-label="Model"
        data-testid="composer-model"
      />
      <datalist id={listId}>
        {choices.map((choice) => (
          <option key={choice} value={choice} />
        ))}
      </datalist>
    </label>
  );
}
